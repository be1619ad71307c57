"""Vision functions: F.pad and its modes, F.interpolate (nearest, linear, bilinear) and what
align_corners changes, affine_grid + grid_sample, pixel_shuffle / pixel_unshuffle.

Run: python functional_vision.py
"""
import torch
import torch.nn.functional as F

torch.set_printoptions(precision=4)
row = torch.tensor([[[1.0, 2.0, 3.0]]])  # (N, C, W): pad's tuple starts with the LAST dim
print("pad (1, 2) constant:", F.pad(row, (1, 2)))  # value=0 by default
print("pad value=-1:       ", F.pad(row, (1, 2), value=-1.0))
print("pad reflect:        ", F.pad(row, (2, 2), mode="reflect"))  # mirror, edge not repeated
print("pad replicate:      ", F.pad(row, (2, 2), mode="replicate"))  # repeat the edge
print("pad circular:       ", F.pad(row, (2, 2), mode="circular"))  # wrap around
print("pad negative crops: ", F.pad(row, (-1, 0)))
image = torch.ones(1, 1, 2, 2)
print("pad (left, right, top, bottom) = (1, 0, 0, 2):", F.pad(image, (1, 0, 0, 2)).shape)
try:
    F.pad(row, (3, 3), mode="reflect")
except RuntimeError as err:
    print("reflect needs pad < size:", type(err).__name__)

print("interpolate nearest x2:", F.interpolate(row, scale_factor=2, mode="nearest"))
lin = {ac: F.interpolate(row, size=5, mode="linear", align_corners=ac) for ac in (True, False)}
print("linear size=5 align_corners=True: ", lin[True])  # corners map to corners
print("linear size=5 align_corners=False:", lin[False])  # pixel centers, edges clamped
square = torch.tensor([[[[0.0, 1.0], [2.0, 3.0]]]])
for ac in (True, False):
    big = F.interpolate(square, size=(4, 4), mode="bilinear", align_corners=ac)
    print(f"bilinear 2x2 -> 4x4, align_corners={ac}, first row:", big[0, 0, 0])
print("bicubic / area shapes:",
      F.interpolate(square, scale_factor=2, mode="bicubic", align_corners=False).shape,
      F.interpolate(torch.ones(1, 1, 4, 4), size=(2, 2), mode="area").shape)

# affine_grid turns (N, 2, 3) matrices into sampling grids; grid_sample reads the input there
identity = torch.tensor([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]])
grid = F.affine_grid(identity, size=(1, 1, 2, 2), align_corners=False)
print("affine_grid identity (x, y in [-1, 1]):", grid.flatten().tolist())
same = F.grid_sample(square, grid, align_corners=False)
print("grid_sample with the identity grid returns the input:", torch.allclose(same, square))
flip = torch.tensor([[[-1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]])  # mirror x
mirrored = F.grid_sample(square, F.affine_grid(flip, (1, 1, 2, 2), align_corners=False),
                         align_corners=False)
print("grid_sample, mirrored x:", mirrored.round(decimals=4) + 0.0, sep="\n")
outside = torch.tensor([[[[2.0, 0.0]]]])  # (N, H_out, W_out, 2): a point right of the image
print("outside, padding_mode zeros / border:",
      F.grid_sample(square, outside, align_corners=True).item(),
      F.grid_sample(square, outside, padding_mode="border", align_corners=True).item())
print("mode='nearest':", F.grid_sample(square, torch.tensor([[[[0.2, -0.8]]]]), mode="nearest",
                                       align_corners=True).item())

# pixel_shuffle: (N, C*r*r, H, W) -> (N, C, H*r, W*r); pixel_unshuffle undoes it
channels = torch.arange(4.0).reshape(1, 4, 1, 1)
up = F.pixel_shuffle(channels, upscale_factor=2)
print("pixel_shuffle:", up.shape, up.flatten().tolist())
print("pixel_unshuffle(pixel_shuffle(x)) == x:", torch.equal(F.pixel_unshuffle(up, 2), channels))
