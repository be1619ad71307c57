"""Convolution shapes: Conv1d takes (N, C, L), Conv2d (N, C, H, W); the output-size formula
checked against real layers; padding="same"; groups (depthwise); ConvTranspose2d's output size
and output_padding; Conv2d as Unfold plus a matrix product.

Run: python layer_conv.py
"""
import warnings

import torch
from torch import nn


def conv_size(size, kernel, stride=1, padding=0, dilation=1):  # the documented formula
    return (size + 2 * padding - dilation * (kernel - 1) - 1) // stride + 1


torch.manual_seed(0)
x = torch.randn(8, 3, 32)  # (N, C_in, L)
print("kernel stride padding dilation -> length (formula)")
for k, s, p, d in [(3, 1, 0, 1), (3, 1, 1, 1), (5, 2, 2, 1), (4, 2, 0, 1), (3, 1, 2, 2)]:
    conv = nn.Conv1d(3, 16, kernel_size=k, stride=s, padding=p, dilation=d)
    out = conv(x)
    print(f"{k} {s} {p} {d} -> {tuple(out.shape)} ({conv_size(32, k, s, p, d)})")

conv = nn.Conv2d(in_channels=3, out_channels=16, kernel_size=3, padding="same", dilation=2)
print("weight:", tuple(conv.weight.shape))  # (C_out, C_in, kH, kW)
print("same:", tuple(conv(torch.randn(2, 3, 17, 20)).shape))  # (N, C_out, H, W), H and W kept
try:
    nn.Conv2d(3, 16, 3, stride=2, padding="same")
except ValueError as error:
    print(f"ValueError: {error}")
with warnings.catch_warnings(record=True) as caught:  # an even kernel pads unevenly
    warnings.simplefilter("always")
    nn.Conv2d(3, 16, kernel_size=4, padding="same")(torch.randn(1, 3, 10, 10))
print(f"{caught[0].category.__name__}: {str(caught[0].message).split(' (')[0]}")
# (N, C, D, H, W)
print("Conv3d:", tuple(nn.Conv3d(3, 4, 3)(torch.randn(2, 3, 8, 16, 16)).shape))
# (C, H, W) works too
print("unbatched:", tuple(nn.Conv2d(3, 4, 3)(torch.randn(3, 10, 10)).shape))
try:
    nn.Conv2d(3, 4, 3)(torch.randn(2, 10, 10, 3))  # channels last: wrong layout
except RuntimeError as error:
    print(f"RuntimeError: {error}")

# groups: each group of input channels has its own filters
depthwise = nn.Conv2d(8, 8, kernel_size=3, padding=1, groups=8)
print("depthwise weight:", tuple(depthwise.weight.shape))  # (C_out, C_in / groups, kH, kW)
try:
    nn.Conv2d(8, 6, kernel_size=3, groups=4)
except ValueError as error:
    print(f"ValueError: {error}")

# ConvTranspose2d: out = (in-1)*stride - 2*padding + dilation*(k-1) + output_padding + 1
up = nn.ConvTranspose2d(16, 8, kernel_size=4, stride=2, padding=1)
print("transpose weight:", tuple(up.weight.shape))  # (C_in, C_out / groups, kH, kW)
print("up 5 ->", tuple(up(torch.randn(1, 16, 5, 5)).shape))
down = nn.Conv2d(8, 16, kernel_size=3, stride=2, padding=1)
print("down 7 ->", tuple(down(torch.randn(1, 8, 7, 7)).shape), "down 8 ->",
      tuple(down(torch.randn(1, 8, 8, 8)).shape))  # two sizes give 4
up = nn.ConvTranspose2d(16, 8, kernel_size=3, stride=2, padding=1)
small = torch.randn(1, 16, 4, 4)
print("up 4 ->", tuple(up(small).shape), "with output_size:",
      tuple(up(small, output_size=[8, 8]).shape))
up_pad = nn.ConvTranspose2d(16, 8, kernel_size=3, stride=2, padding=1, output_padding=1)
print("output_padding=1 ->", tuple(up_pad(small).shape))

# Conv2d is a matrix product over the patches Unfold extracts
conv = nn.Conv2d(3, 4, kernel_size=3)
images = torch.randn(2, 3, 6, 6)
patches = nn.Unfold(kernel_size=3)(images)  # (N, C_in * kH * kW, number of patches)
print("patches:", tuple(patches.shape))
product = conv.weight.view(4, -1) @ patches + conv.bias[:, None]
print("unfold @ weight:", torch.allclose(product.view(2, 4, 4, 4), conv(images), atol=1e-5))
# Fold sums the patches back: each pixel counts once per patch that covers it
ones = torch.ones(1, 1, 6, 6)
counts = nn.Fold(output_size=(6, 6), kernel_size=3)(nn.Unfold(kernel_size=3)(ones))
print(counts[0, 0].int())
