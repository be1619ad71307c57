"""torch.cat joins along an existing dim; torch.stack adds a new dim.

Run: python cat_stack.py
"""
import torch

a = torch.tensor([[1, 2, 3], [4, 5, 6]])  # shape [2, 3]
b = torch.tensor([[7, 8, 9]])             # shape [1, 3]
print(torch.cat([a, b]))                  # dim=0: [3, 3]
print(torch.cat([a, a], dim=1))           # dim=1: [2, 6]
print(torch.cat([a, a], dim=-1).shape)    # negative dims count from the end

try:
    torch.cat([a, a], dim=2)  # cat never creates a dim
except IndexError as error:
    print(f"IndexError: {error}")
try:
    torch.cat([a, b], dim=1)  # the other dims must match
except RuntimeError as error:
    print(f"RuntimeError: {error}")

print(torch.stack([a, a]).shape)         # new dim 0: [2, 2, 3]
print(torch.stack([a, a], dim=2).shape)  # new last dim: [2, 3, 2]
print(torch.stack([a, a], dim=2)[0])
try:
    torch.stack([a, b])  # stack needs equal shapes
except RuntimeError as error:
    print(f"RuntimeError: {error}")
