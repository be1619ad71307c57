"""Tensor.numpy() and torch.from_numpy: shared memory in both directions.

Run: python numpy_bridge.py
"""
import numpy as np
import torch

t = torch.ones(3)
a = t.numpy()  # no copy: a views t's memory
t[0] = 5
print(a, a.dtype)
a[1] = 7
print(t)

back = torch.from_numpy(a)  # and back again, still the same memory
back[2] = 9
print(t)

w = torch.ones(2, requires_grad=True)
try:
    w.numpy()
except RuntimeError as error:
    print(f"RuntimeError: {error}")
print(w.detach().numpy())   # detach first (for a GPU tensor, also .cpu())
print(w.numpy(force=True))  # detach, move to the CPU as needed: one call

f64 = torch.from_numpy(np.array([0.5, 1.5]))
print(f64.dtype)          # NumPy's default float64 stays float64
print(f64.float().dtype)  # convert it for float32 models
