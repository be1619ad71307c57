"""torch.tensor: always copies its data into a new leaf tensor.

Copy-constructing from a tensor emits a UserWarning: the script catches it on
purpose and prints it, then shows the recommended equivalents.

Run: python tensor.py
"""
import warnings

import numpy as np
import torch

print(torch.tensor([1, 2, 3]).dtype)      # Python ints -> int64
print(torch.tensor([1, 2.5]).dtype)       # any float -> default float dtype
print(torch.tensor([True, False]).dtype)  # bools -> bool
t = torch.tensor(3.5)                     # a scalar gives a 0-d tensor
print(t, t.shape)

source = np.array([1.0, 2.0, 3.0])
t = torch.tensor(source)  # a copy; the array's float64 is kept
source[0] = 100.0
print(t, "(the array changed, the tensor did not)")

x = torch.ones(2, requires_grad=True) * 2  # a tensor with autograd history
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    y = torch.tensor(x)
print(f"{caught[0].category.__name__}: {caught[0].message}")
print(y, y.requires_grad, y.is_leaf)

# What to write instead: the same values, no warning
y = x.detach().clone()
print(y, y.requires_grad, y.is_leaf)
# and instead of torch.tensor(x, requires_grad=True):
z = x.detach().clone().requires_grad_(True)
print(z, z.requires_grad, z.is_leaf)
