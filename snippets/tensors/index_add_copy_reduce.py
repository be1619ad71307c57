"""index_add / index_copy / index_reduce: move whole slices of source to the positions a 1-D
index gives.

Run: python index_add_copy_reduce.py
"""
import warnings

import torch

base = torch.zeros(4, 3)
source = torch.tensor([[1.0, 1.0, 1.0], [2.0, 2.0, 2.0], [3.0, 3.0, 3.0]])
index = torch.tensor([0, 2, 0])  # source row i goes to row index[i]; row 0 twice

print(f"index_add:\n{torch.index_add(base, 0, index, source)}")  # repeated rows add up
print("alpha=-1, row 0:", torch.index_add(base, 0, index, source, alpha=-1)[0])
# unique rows
print(f"index_copy:\n{torch.index_copy(base, 0, torch.tensor([3, 1, 0]), source)}")
print("base is unchanged:", base.sum().item())

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    full = torch.full((4, 3), 10.0)
    print("amax, include_self=True: ", torch.index_reduce(full, 0, index, source, "amax")[:, 0])
    no_self = torch.index_reduce(full, 0, index, source, "amax", include_self=False)
    print("amax, include_self=False:", no_self[:, 0])  # rows 1 and 3 keep 10
    print("mean, include_self=False:", torch.index_reduce(full, 0, index, source, "mean",
                                                           include_self=False)[:, 0])
for warning in caught:  # index_reduce is a beta API and says so, once per process
    print(f"{warning.category.__name__}: {str(warning.message).split(' (Triggered')[0]}")

try:
    torch.index_reduce(base, 0, index, source, "sum")  # sums are index_add's job
except RuntimeError as error:
    print(f"RuntimeError: {error}")
