"""torch.clamp (alias clip): limit values to [min, max].

Run: python clamp.py
"""
import torch

x = torch.tensor([-2.0, -0.5, 0.5, 3.0])
print(torch.clamp(x, min=-1, max=1))
print(x.clamp(min=0))  # one bound is enough: this is ReLU
upper = torch.tensor([0.0, 0.0, 1.0, 1.0])
print(x.clamp(max=upper))  # tensor bounds, element-wise
print(torch.clip(x, -1, 1))  # the same function
print(torch.clamp(x, min=1, max=0))  # min > max: everything becomes max

try:
    torch.clamp(x)
except RuntimeError as error:
    print(f"RuntimeError: {error}")

x.clamp_(0, 1)  # the in-place version
print(x)
