"""torch.from_dlpack: zero-copy exchange with NumPy (or any DLPack library), both ways.

Run: python from_dlpack.py
"""
import warnings

import numpy as np
import torch

array = np.arange(4.0)
t = torch.from_dlpack(array)  # NumPy -> torch: no copy
print("shares:", t.data_ptr() == array.ctypes.data)
array[0] = 10.0
print(t)

back = np.from_dlpack(t)  # torch -> NumPy: no copy either
t[1] = 20.0
print(back)
print("copy=True shares:", torch.from_dlpack(array, copy=True).data_ptr() == array.ctypes.data)

try:
    np.from_dlpack(torch.ones(2, requires_grad=True))
except BufferError as error:
    print(f"BufferError: {error}")
try:  # a reversed view has a negative stride
    torch.from_dlpack(np.arange(3.0)[::-1])
except RuntimeError as error:
    print(f"RuntimeError: {error}")

frozen = np.arange(3.0)
frozen.flags.writeable = False
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    view = torch.from_dlpack(frozen)  # from_numpy would warn here
print("warnings:", len(caught))
view[0] = -1.0
print("read-only array:", frozen)
