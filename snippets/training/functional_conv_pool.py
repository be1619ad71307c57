"""Convolution and pooling functions: F.conv1d / conv2d / conv3d (weight shapes, padding="same",
groups), their transposes, F.unfold / F.fold (conv as unfold + matmul); max_pool (return_indices,
ceil_mode) and max_unpool, avg_pool and count_include_pad, adaptive pools, lp_pool,
fractional_max_pool.

Run: python functional_conv_pool.py
"""
import torch
import torch.nn.functional as F

torch.set_printoptions(precision=4)
signal = torch.tensor([[[1.0, 2.0, 3.0, 4.0, 5.0]]])  # (N, C_in=1, L=5)
kernel = torch.tensor([[[1.0, 0.0, -1.0]]])  # (C_out=1, C_in/groups=1, k=3)
print("conv1d:", F.conv1d(signal, kernel))  # cross-correlation: the kernel is not flipped
print("conv1d padding=1:", F.conv1d(signal, kernel, padding=1))
print("conv1d padding='same':", F.conv1d(signal, kernel, padding="same").shape)
print("conv1d stride=2:", F.conv1d(signal, kernel, stride=2))

image = torch.arange(16.0).reshape(1, 1, 4, 4)  # (N, C_in, H, W)
box = torch.ones(1, 1, 2, 2)  # (C_out, C_in, kH, kW)
print("conv2d 2x2 sums:", F.conv2d(image, box), sep="\n")
two = torch.cat([image, -image], dim=1)  # 2 channels
per_channel = torch.ones(2, 1, 2, 2)  # groups=2: one filter per channel (depthwise)
print("conv2d groups=2:", F.conv2d(two, per_channel, groups=2).shape)
volume = torch.ones(1, 1, 3, 3, 3)
print("conv3d:", F.conv3d(volume, torch.ones(1, 1, 2, 2, 2)).shape)

# Transposed convolutions grow the input back (weight: (C_in, C_out/groups, k...))
print("conv_transpose1d:",
      F.conv_transpose1d(torch.tensor([[[1.0, 2.0]]]), torch.ones(1, 1, 2), stride=2))
print("conv_transpose2d:",
      F.conv_transpose2d(torch.ones(1, 1, 2, 2), torch.ones(1, 1, 2, 2), stride=2).shape)
print("conv_transpose3d:",
      F.conv_transpose3d(torch.ones(1, 1, 2, 2, 2), torch.ones(1, 1, 2, 2, 2), stride=2).shape)

# unfold extracts sliding patches as columns; conv2d = weight @ patches
patches = F.unfold(image, kernel_size=2)  # (N, C*kH*kW, number of patches)
print("unfold:", patches.shape)
as_matmul = (box.view(1, -1) @ patches).view(1, 1, 3, 3)
print("conv2d == unfold + matmul:", torch.equal(as_matmul, F.conv2d(image, box)))
back = F.fold(patches, output_size=(4, 4), kernel_size=2)  # sums overlapping patches
print("fold(unfold(x)): each pixel times its patch count", back, sep="\n")

# Pooling
# stride defaults to kernel_size
print("max_pool2d 2x2:", F.max_pool2d(image, kernel_size=2), sep="\n")
print("avg_pool2d 2x2:", F.avg_pool2d(image, kernel_size=2), sep="\n")
print("max_pool2d k=3 stride=1:", F.max_pool2d(image, 3, stride=1).shape)
print("max_pool2d k=3, ceil_mode:", F.max_pool2d(image, 3, stride=2).shape,
      F.max_pool2d(image, 3, stride=2, ceil_mode=True).shape)

row = torch.tensor([[[1.0, 2.0, 3.0, 4.0]]])  # (N, C, L)
print("avg_pool1d padding=1:", F.avg_pool1d(row, 2, padding=1))  # zeros counted
print("  count_include_pad=False:", F.avg_pool1d(row, 2, padding=1, count_include_pad=False))
print("max_pool1d:", F.max_pool1d(row, 2))
cube = torch.arange(8.0).reshape(1, 1, 2, 2, 2)
print("max_pool3d / avg_pool3d:", F.max_pool3d(cube, 2).flatten(),
      F.avg_pool3d(cube, 2).flatten())

# return_indices=True gives what max_unpool needs to put the maxima back
pooled, idx = F.max_pool2d(image, 2, return_indices=True)
print("indices (flat, per channel):", idx.flatten())
print("max_unpool2d:", F.max_unpool2d(pooled, idx, kernel_size=2), sep="\n")
p1, i1 = F.max_pool1d(row, 2, return_indices=True)
print("max_unpool1d:", F.max_unpool1d(p1, i1, kernel_size=2))
p3, i3 = F.max_pool3d(cube, 2, return_indices=True)
print("max_unpool3d:", F.max_unpool3d(p3, i3, kernel_size=2).flatten())

# Adaptive pools: give the output size, the windows follow from the input size
for size in [(4, 4), (6, 10)]:
    z = torch.ones(1, 3, *size)
    print("adaptive_avg_pool2d(1) of", size, "->", tuple(F.adaptive_avg_pool2d(z, 1).shape))
print("adaptive_avg_pool2d(1) == mean over H, W:",
      torch.equal(F.adaptive_avg_pool2d(image, 1).flatten(), image.mean(dim=(2, 3)).flatten()))
print("adaptive_max_pool2d((2, 1)):", F.adaptive_max_pool2d(image, (2, 1)).flatten())
print("adaptive_avg_pool1d(2) / adaptive_max_pool1d(2):",
      F.adaptive_avg_pool1d(row, 2).flatten(), F.adaptive_max_pool1d(row, 2).flatten())
print("adaptive_avg_pool3d(1) / adaptive_max_pool3d(1):",
      F.adaptive_avg_pool3d(cube, 1).flatten(), F.adaptive_max_pool3d(cube, 1).flatten())
values, where = F.adaptive_max_pool2d(image, 1, return_indices=True)
print("adaptive_max_pool2d, return_indices:", values.flatten(), where.flatten())

# lp_pool: (sum of x^p over the window)^(1/p); p=1 is the sum, large p nears the max
print("lp_pool1d p=1:", F.lp_pool1d(row, 1, 2), " p=2:", F.lp_pool1d(row, 2, 2))
print("lp_pool2d p=2 on ones:", F.lp_pool2d(torch.ones(1, 1, 2, 2), 2, 2).flatten())

# fractional_max_pool: random window positions, an exact output size
torch.manual_seed(0)
frac = F.fractional_max_pool2d(torch.ones(1, 1, 7, 7), 2, output_size=(5, 5))
print("fractional_max_pool2d:", tuple(frac.shape))
frac3 = F.fractional_max_pool3d(torch.ones(1, 1, 6, 6, 6), 2, output_ratio=0.5)
print("fractional_max_pool3d output_ratio=0.5:", tuple(frac3.shape))
