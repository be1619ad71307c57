"""Resizing and reshaping layers: Upsample (nearest, bilinear, align_corners), PixelShuffle and
PixelUnshuffle, ChannelShuffle, Flatten and Unflatten, CosineSimilarity and PairwiseDistance,
Identity.

Run: python vision_layers.py
"""
import torch
from torch import nn

torch.set_printoptions(precision=4)
x = torch.tensor([[[[1.0, 2.0], [3.0, 4.0]]]])  # (N, C, H, W) = (1, 1, 2, 2)

# Upsample: give scale_factor or size; nearest copies pixels
print("nearest:", nn.Upsample(scale_factor=2)(x)[0, 0].tolist())
print("UpsamplingNearest2d:",
      torch.equal(nn.UpsamplingNearest2d(scale_factor=2)(x), nn.Upsample(scale_factor=2)(x)))
# Bilinear: align_corners changes where the samples fall
up = nn.Upsample(size=(2, 4), mode="bilinear", align_corners=False)
print("bilinear:", up(x)[0, 0, 0])
up_ac = nn.Upsample(size=(2, 4), mode="bilinear", align_corners=True)
print("bilinear align_corners:", up_ac(x)[0, 0, 0])  # the corner pixels stay where they are
print("UpsamplingBilinear2d is align_corners=True:",
      torch.allclose(nn.UpsamplingBilinear2d(size=(2, 4))(x), up_ac(x)))

# PixelShuffle: (N, C*r*r, H, W) -> (N, C, H*r, W*r); PixelUnshuffle undoes it
ch = torch.arange(4.0).reshape(1, 4, 1, 1)  # four channels of one pixel
ps = nn.PixelShuffle(2)(ch)
print("pixel shuffle:", tuple(ps.shape), ps[0, 0].tolist())
print("unshuffle back:", torch.equal(nn.PixelUnshuffle(2)(ps), ch))

# ChannelShuffle: split the channels into groups, then interleave them
c6 = torch.arange(6.0).reshape(1, 6, 1, 1)
print("channel shuffle:", nn.ChannelShuffle(2)(c6).flatten().tolist())

# Flatten keeps the batch dimension (start_dim=1); Unflatten splits one dimension
feat = torch.zeros(8, 3, 4, 4)
flat = nn.Flatten()(feat)
print("flatten:", tuple(flat.shape), "start_dim=0:", tuple(nn.Flatten(0)(feat).shape))
print("unflatten:", tuple(nn.Unflatten(1, (3, 16))(flat).shape))

# Distances between rows: one value per pair of matching rows
a = torch.tensor([[1.0, 0.0], [3.0, 4.0]])
b = torch.tensor([[0.0, 1.0], [6.0, 8.0]])
print("cosine:", nn.CosineSimilarity(dim=1)(a, b))
print("pairwise p=2:", nn.PairwiseDistance()(a, b))
print("pairwise p=1, keepdim:", nn.PairwiseDistance(p=1, keepdim=True)(a, b))

# Identity returns its input: a placeholder, e.g. to drop a classifier head
model = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
model[1] = nn.Identity()
print("identity:", torch.equal(nn.Identity(54, unused="ignored")(a), a), model)
