"""torch.empty / empty_like: allocate memory without initializing it.

Run: python empty.py
"""
import torch

# Do not print the values: they are whatever was in memory, and change
# from run to run.
e = torch.empty(2, 3)
print(e.shape, e.dtype)

x = torch.zeros(4, dtype=torch.int32)
f = torch.empty_like(x)  # shape, dtype and device of x; contents undefined
print(f.shape, f.dtype)

f.fill_(7)  # write every element before reading any
print(f)

# Deterministic mode fills new memory instead: NaN, or the largest integer
print(torch.utils.deterministic.fill_uninitialized_memory)  # on by default
torch.use_deterministic_algorithms(True)
print(torch.empty(2, 3))
print(torch.empty_like(x))
torch.use_deterministic_algorithms(False)  # back to the default
