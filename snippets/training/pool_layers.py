"""Pooling layers: MaxPool with return_indices and MaxUnpool, AvgPool's count_include_pad and
divisor_override, adaptive pooling to a fixed size, LPPool, seeded FractionalMaxPool.

Run: python pool_layers.py
"""
import torch
from torch import nn

x = torch.arange(16.0).reshape(1, 1, 4, 4)  # (N, C, H, W)
print("x:", x[0, 0].tolist())

# Max pooling: the indices are flat positions in each H*W plane
pool = nn.MaxPool2d(2, return_indices=True)  # stride defaults to kernel_size
out, idx = pool(x)
print("max:", out[0, 0].tolist(), "indices:", idx[0, 0].tolist())
# MaxUnpool2d puts each maximum back where it came from, zeros elsewhere
print("unpool:", nn.MaxUnpool2d(2)(out, idx)[0, 0].tolist())
print("ceil_mode:", tuple(nn.MaxPool2d(3, stride=2)(x).shape),
      tuple(nn.MaxPool2d(3, stride=2, ceil_mode=True)(x).shape))

# 1-d and 3-d forms: (N, C, L) and (N, C, D, H, W)
s = torch.tensor([[[1.0, 5.0, 2.0, 4.0, 3.0, 0.0]]])
m1, i1 = nn.MaxPool1d(2, return_indices=True)(s)
print("1d max:", m1.tolist(), "unpool:", nn.MaxUnpool1d(2)(m1, i1).tolist())
v = torch.arange(8.0).reshape(1, 1, 2, 2, 2)
m3, i3 = nn.MaxPool3d(2, return_indices=True)(v)
print("3d max:", m3.flatten().tolist(), "unpool:", nn.MaxUnpool3d(2)(m3, i3).flatten().tolist())

# Average pooling: with padding, are the padded zeros counted in the divisor?
ones = torch.ones(1, 1, 2, 2)
print("avg count_include_pad=True:", nn.AvgPool2d(2, stride=1, padding=1)(ones)[0, 0].tolist())
print("avg count_include_pad=False:",
      nn.AvgPool2d(2, stride=1, padding=1, count_include_pad=False)(ones)[0, 0].tolist())
print("avg divisor_override=1 (a sum):", nn.AvgPool2d(2, divisor_override=1)(x)[0, 0].tolist())
print("avg 1d:", nn.AvgPool1d(2)(s).tolist(), "3d:", nn.AvgPool3d(2)(v).flatten().tolist())

# Adaptive pooling: you give the output size, the layer picks the windows
feat = torch.arange(2 * 5 * 7.0).reshape(1, 2, 5, 7)
gap = nn.AdaptiveAvgPool2d((1, 1))  # global average pooling
print("gap:", tuple(gap(feat).shape), gap(feat).flatten().tolist())
print("adaptive max 2d (2, 3):", tuple(nn.AdaptiveMaxPool2d((2, 3))(feat).shape))
# None keeps that size
print("adaptive (None, 1):", tuple(nn.AdaptiveAvgPool2d((None, 1))(feat).shape))
print("adaptive 1d:", nn.AdaptiveAvgPool1d(3)(s).tolist(), nn.AdaptiveMaxPool1d(2)(s).tolist())
print("adaptive 3d:", tuple(nn.AdaptiveAvgPool3d(1)(v).shape),
      tuple(nn.AdaptiveMaxPool3d((1, 2, 1))(v).shape))

# LPPool: (sum of x**p over the window) ** (1/p); p=1 is a sum pool, large p nears max
print("lp p=1:", nn.LPPool1d(1, 2)(s).tolist(), "lp p=2 on 3,4:",
      nn.LPPool1d(2, 2)(torch.tensor([[[3.0, 4.0]]])).round(decimals=4).tolist())
print("lp 2d p=1:", nn.LPPool2d(1, 2)(x)[0, 0].tolist())

# FractionalMaxPool: random window positions, so seed for a repeatable result
torch.manual_seed(0)
frac = nn.FractionalMaxPool2d(2, output_size=(3, 3), return_indices=True)
a, ia = frac(x)
torch.manual_seed(0)
b, _ = frac(x)
print("fractional:", tuple(a.shape), "same seed, same output:", torch.equal(a, b))
print("values are input values:", torch.equal(a.flatten(), x.flatten()[ia.flatten()]))
print("fractional 3d:",
      tuple(nn.FractionalMaxPool3d(2, output_ratio=0.5)(torch.rand(1, 1, 4, 4, 4)).shape))
