"""torch.where: pick from two tensors (or scalars) by a condition; with one argument, find
indices.

Run: python where.py
"""
import torch

x = torch.tensor([[1, -2, 0], [-4, 5, 6]])
print(f"where(x > 0, x, 0):\n{torch.where(x > 0, x, 0)}")  # a scalar for the other branch
print(f"where(x > 0, 1.0, 0.0):\n{torch.where(x > 0, 1.0, 0.0)}")  # two scalars
half = torch.where(x > 0, x, 0.5)  # int tensor and float scalar: the result is float
print("dtype with 0.5:", half.dtype, "x:", x.dtype)
print("row 0:", half[0])

bias = torch.tensor([10, 20, 30])  # broadcasts like the condition
print(f"broadcast:\n{torch.where(x > 0, x, bias)}")

try:
    torch.where(x, x, 0)  # the three-argument form needs a bool condition
except RuntimeError as error:
    print(f"RuntimeError: {error}")

rows, cols = torch.where(x > 0)  # one argument: indices, like nonzero(as_tuple=True)
print("where(x > 0):", rows, cols)
print("same as nonzero:", torch.nonzero(x > 0, as_tuple=True))
print("x[where(x > 0)]:", x[rows, cols])

v = torch.tensor([-1.0, 4.0], requires_grad=True)
torch.where(v > 0, torch.sqrt(v), 0.0).sum().backward()
print("grad, sqrt of all:", v.grad)  # sqrt(-1) is nan; its gradient leaks through where
v.grad = None
safe = torch.where(v > 0, v, 1.0)  # make the unused branch harmless first
torch.where(v > 0, torch.sqrt(safe), 0.0).sum().backward()
print("grad, safe input:", v.grad)
