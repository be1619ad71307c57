"""torch.is_tensor: True for torch.Tensor objects (Parameters included) only.

Run: python is_tensor.py
"""
import numpy as np
import torch

print(torch.is_tensor(torch.zeros(2)))
# A Parameter is a Tensor subclass
print(torch.is_tensor(torch.nn.Parameter(torch.zeros(2))))
print(torch.is_tensor(np.zeros(2)))  # array-like, but not a tensor
print(torch.is_tensor([1.0, 2.0]))
print(torch.is_tensor(3.0))
# The same test, written the usual way
print(isinstance(torch.zeros(2), torch.Tensor))
