"""Padding and pooling layers newer than the others: CircularPad (wraps around), ZeroPad1d and
ZeroPad3d, LPPool3d.

Run: python pool_pad_newer.py
"""
import torch
from torch import nn

x = torch.tensor([[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]]])  # (1, 1, 2, 3)

# Circular padding takes the values from the other side (a periodic signal)
print("circular 2d:", nn.CircularPad2d((1, 1, 0, 0))(x)[0, 0].tolist())
s = torch.tensor([[[1.0, 2.0, 3.0]]])
print("circular 1d:", nn.CircularPad1d((2, 1))(s).tolist())
print("circular 3d:", tuple(nn.CircularPad3d(1)(torch.ones(1, 1, 2, 2, 2)).shape))

# ZeroPad in 1-d and 3-d
print("zero 1d:", nn.ZeroPad1d((1, 2))(s).tolist())
print("zero 3d:", tuple(nn.ZeroPad3d((0, 0, 0, 0, 1, 1))(torch.ones(1, 1, 2, 2, 2)).shape))

# LPPool3d with p=1 sums each window
v = torch.arange(8.0).reshape(1, 1, 2, 2, 2)
print("lp 3d p=1:", nn.LPPool3d(1, 2)(v).flatten().tolist())
