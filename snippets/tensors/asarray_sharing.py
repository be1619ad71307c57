"""torch.asarray: shares memory when it can, copies when it must or when asked.

Run: python asarray_sharing.py
"""
import warnings

import numpy as np
import torch

array = np.array([1.0, 2.0, 3.0])


def shares(t):  # the same first byte of memory as the array
    return t.data_ptr() == array.ctypes.data


print("asarray:", shares(torch.asarray(array)))
print("as_tensor:", shares(torch.as_tensor(array)))
print("tensor:", shares(torch.tensor(array)))
print("asarray copy=True:", shares(torch.asarray(array, copy=True)))
print("asarray dtype=float32:", shares(torch.asarray(array, dtype=torch.float32)))
try:  # copy=False: share or fail
    torch.asarray(array, dtype=torch.float32, copy=False)
except ValueError as error:
    print(f"ValueError: {error}")

data = bytearray(b"\x01\x02\x03")  # anything with the buffer protocol: shared too
from_bytes = torch.asarray(data)
data[0] = 9
print(from_bytes)
print("as_tensor of it:", torch.as_tensor(data))  # a sequence of ints to as_tensor: copied

y = torch.ones(2, requires_grad=True) * 2  # a tensor with autograd history
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    same = torch.asarray(y)  # requires_grad not given
print(f"{caught[0].category.__name__}: {str(caught[0].message).split(' (Triggered')[0]}")
print("asarray(y):", same is y, same.grad_fn is not None)
detached = torch.asarray(y, requires_grad=False)  # no warning, no history, still shared
print("requires_grad=False:", detached.requires_grad, detached.data_ptr() == y.data_ptr())
