"""torch.masked_select: the elements where a bool mask is True, as a new 1-D tensor.

Run: python masked_select.py
"""
import torch

x = torch.tensor([[1, -2, 3], [-4, 5, -6]])
picked = torch.masked_select(x, x > 0)
print("masked_select:", picked)  # 1-D: the shape of x is gone
print("x[x > 0]:     ", x[x > 0])  # the same elements

columns = torch.tensor([True, False, True])  # broadcasts to every row
print("column mask:", torch.masked_select(x, columns))

picked[0] = 100  # a copy: x does not change
print("x[0] after writing to the result:", x[0])
print(f"where keeps the shape:\n{torch.where(x > 0, x, 0)}")

try:
    torch.masked_select(x, torch.tensor([1, 0, 1]))  # the mask must be bool
except RuntimeError as error:
    print(f"RuntimeError: {error}")
