"""sum / mean / max over a dim: the dim disappears unless keepdim=True.

Run: python reductions.py
"""
import torch

x = torch.tensor([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]])  # shape [2, 3]
print(x.sum())                     # everything: a 0-d tensor
print(x.sum(dim=0))                # down the rows: shape [3]
print(x.sum(dim=1))                # across the columns: shape [2]
print(x.sum(dim=1, keepdim=True))  # shape [2, 1]
print(x / x.sum(dim=1, keepdim=True))  # broadcasts back, row by row
print(x.mean(dim=(0, 1)))          # several dims at once

try:
    torch.tensor([1, 2]).mean()    # integer tensors have no mean
except RuntimeError as error:
    print(f"RuntimeError: {error}")

print(x.max())                  # no dim: just the largest value
values, indices = x.max(dim=1)  # with a dim: (values, indices)
print(values, indices)
result = torch.max(x, dim=0, keepdim=True)  # a named tuple
print(result.values, result.indices)
print(torch.tensor([7, 7, 1]).max(dim=0).indices)  # a tie
