"""torch.zeros / ones / full and their *_like versions: filled tensors.

Run: python zeros_ones_full.py
"""
import torch

print(torch.zeros(2, 3))                      # the size as separate ints
print(torch.ones((2, 3), dtype=torch.int64))  # ... or as one tuple
print(torch.full((2, 2), 1.5))
print(torch.full((2,), 7).dtype)     # an int fill value gives int64
print(torch.full((2,), True).dtype)  # a bool fill value gives bool

x = torch.tensor([[1, 2, 3], [4, 5, 6]], dtype=torch.int32)
print(torch.zeros_like(x))  # same shape, dtype and device as x
print(torch.ones_like(x, dtype=torch.float32))
print(torch.full_like(x, 2.7))  # x is int32, so 2.7 is truncated to 2
