"""torch.scatter: write src (or one value) into a copy of input at the positions index gives.

Run: python scatter.py
"""
import warnings

import torch

base = torch.zeros(3, 4, dtype=torch.long)
src = torch.tensor([[1, 2, 3, 4], [5, 6, 7, 8]])
index = torch.tensor([[2, 0, 1, 2]])  # one row, so only src row 0 is used
# dim=0: src[0][j] goes to row index[0][j] of column j
print(f"scatter(base, 0, index, src):\n{torch.scatter(base, 0, index, src)}")
print("base is unchanged:", base.sum().item())  # scatter returns a new tensor

labels = torch.tensor([3, 0, 1])
one_hot = torch.scatter(torch.zeros(3, 4), 1, labels.unsqueeze(1), 1.0)  # the value form
print(f"one-hot:\n{one_hot}")
print("value, "
      f"reduce='add':\n{torch.scatter(one_hot, 1, labels.unsqueeze(1), 5.0, reduce='add')}")

base.scatter_(1, torch.tensor([[0], [1], [2]]), 9)  # Tensor.scatter_ works in place
print(f"after scatter_:\n{base}")

try:
    torch.scatter(torch.zeros(3), 0, torch.tensor([0]), torch.tensor([1]))  # long into float
except RuntimeError as error:
    print(f"RuntimeError: {error}")

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    torch.scatter(torch.zeros(3), 0, torch.tensor([0, 0]), torch.ones(2), reduce="add")
for warning in caught:  # reduce= with a tensor src is deprecated
    message = str(warning.message).split(" (Triggered")[0]  # drop the C++ source path
    print(f"{warning.category.__name__}: {message}")
