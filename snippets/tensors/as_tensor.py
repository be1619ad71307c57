"""torch.as_tensor: no copy when dtype and device already match.

Run: python as_tensor.py
"""
import numpy as np
import torch

array = np.array([1.0, 2.0, 3.0])
shared = torch.as_tensor(array)                       # float64, CPU: no copy
copied = torch.as_tensor(array, dtype=torch.float32)  # other dtype: a copy
array[0] = -1.0
print(shared)  # sees the change
print(copied)  # does not

t = torch.arange(3)
print(torch.as_tensor(t) is t)  # already a tensor: returned as is
print(torch.as_tensor(t, dtype=torch.float32) is t)  # converted: new tensor

values = [1, 2, 3]
from_list = torch.as_tensor(values)  # a Python list is always copied
values[0] = 100
print(from_list)
