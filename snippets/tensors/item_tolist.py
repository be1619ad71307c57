"""Tensor.item and Tensor.tolist: from a tensor to Python numbers and lists.

Run: python item_tolist.py
"""
import torch

loss = torch.tensor(0.1)  # a 0-d float32 tensor, as a loss usually is
value = loss.item()  # a Python float (64-bit), no longer a tensor
print(type(value).__name__, f"{value:.10f}")  # float32's nearest value to 0.1, widened
print(type(torch.tensor(7).item()).__name__, torch.tensor(7).item())
print(type(torch.tensor(True).item()).__name__)
print(torch.tensor([2.5]).item())  # one element is enough, whatever the shape

x = torch.arange(6).reshape(2, 3)
try:
    x.item()
except RuntimeError as exc:
    print(f"RuntimeError: {exc}")
print(x.tolist())  # nested lists, one level per dimension
print(x[0, 1].tolist())  # a 0-d tensor gives a bare number
print(torch.tensor([0.5, 0.25]).tolist())
