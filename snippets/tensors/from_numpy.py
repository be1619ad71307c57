"""torch.from_numpy: a tensor sharing memory with the array, both ways.

Run: python from_numpy.py
"""
import numpy as np
import torch

array = np.array([1, 2, 3])
t = torch.from_numpy(array)
print(t.dtype)  # NumPy's dtype is kept: int64 here

array[0] = 10  # write through the array ...
print(t)
t[1] = 20      # ... or through the tensor
print(array)

try:
    t.resize_(5)  # the memory belongs to NumPy: it cannot grow
except RuntimeError as error:
    print(f"RuntimeError: {error}")

try:
    torch.from_numpy(np.arange(3)[::-1])  # negative strides: refused
except ValueError as error:
    print(f"ValueError: {str(error).split(' (')[0]}")
print(torch.from_numpy(np.arange(3)[::-1].copy()))  # copy first
