"""Padding layers: the (left, right, top, bottom) order, zero, constant, reflection and
replication padding in 1-d, 2-d and 3-d.

Run: python pad_layers.py
"""
import torch
from torch import nn

x = torch.tensor([[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]]])  # (N, C, H, W) = (1, 1, 2, 3)

# padding=(left, right, top, bottom): the last dimension comes first
print("zero:", nn.ZeroPad2d((1, 0, 0, 1))(x)[0, 0].tolist())
print("constant -1:", nn.ConstantPad2d(1, -1.0)(x)[0, 0].tolist())  # an int pads every side
# mirrors, edge not repeated
print("reflection:", nn.ReflectionPad2d((2, 2, 0, 0))(x)[0, 0].tolist())
print("replication:", nn.ReplicationPad2d((2, 2, 0, 0))(x)[0, 0].tolist())  # repeats the edge

# 1-d: (N, C, L) with (left, right)
s = torch.tensor([[[1.0, 2.0, 3.0]]])
print("1d constant:", nn.ConstantPad1d((0, 2), 9.0)(s).tolist())
print("1d reflection:", nn.ReflectionPad1d(2)(s).tolist())
print("1d replication:", nn.ReplicationPad1d((1, 3))(s).tolist())

# 3-d: (N, C, D, H, W) with (left, right, top, bottom, front, back)
v = torch.ones(1, 1, 2, 2, 2)
print("3d constant:", tuple(nn.ConstantPad3d((1, 1, 0, 0, 0, 2), 0.0)(v).shape))
print("3d reflection:", tuple(nn.ReflectionPad3d(1)(v).shape))
print("3d replication:", tuple(nn.ReplicationPad3d((0, 0, 0, 0, 1, 1))(v).shape))

# Negative padding crops
print("crop:", nn.ZeroPad2d((-1, 0, 0, 0))(x)[0, 0].tolist())

# Reflection needs padding smaller than the input size in that dimension
try:
    nn.ReflectionPad1d(3)(s)
except RuntimeError:
    print("too much reflection: RuntimeError")
