"""permute reorders all dims; transpose swaps two. Both return views.

Run: python permute_transpose.py
"""
import torch

images = torch.zeros(8, 32, 24, 3)       # N, H, W, C (e.g. from NumPy)
print(images.permute(0, 3, 1, 2).shape)  # N, C, H, W: every dim once
print(images.transpose(1, 3).shape)      # swaps H and C: N, C, W, H

m = torch.arange(6).view(2, 3)
t = m.transpose(0, 1)  # for 2-D tensors, also m.t() or m.T
print(t)
t[0, 1] = 100          # a view: m changes too
print(m)
print(t.is_contiguous(), t.stride())  # same memory, strides swapped
