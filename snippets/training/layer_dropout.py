"""Dropout: in training it zeroes each element with probability p and scales the others by
1 / (1 - p); in eval it returns its input. Dropout1d/2d/3d drop whole channels; AlphaDropout
keeps the mean and standard deviation (for SELU).

Run: python layer_dropout.py
"""
import warnings

import torch
from torch import nn

torch.manual_seed(0)
drop = nn.Dropout(p=0.25)
print(drop(torch.ones(2, 8)))  # kept values: 1 / (1 - 0.25)
many = drop(torch.ones(100_000))
print("zeroed:", round((many == 0).float().mean().item(), 2), "mean:",
      round(many.mean().item(), 2))
drop.eval()
x = torch.randn(2, 8)
print("eval returns the input:", torch.equal(drop(x), x))

# Dropout2d on (N, C, H, W): each channel of each sample is kept or zeroed whole
channels = nn.Dropout2d(p=0.5)(torch.ones(2, 4, 3, 3))
print("channel values:", channels.amax(dim=(2, 3)).tolist())
print("whole channels:", torch.equal(channels.amin(dim=(2, 3)), channels.amax(dim=(2, 3))))
print("Dropout1d on (N, C, L):", nn.Dropout1d(p=0.5)(torch.ones(2, 4, 5)).amax(dim=2).tolist())
volumes = nn.Dropout3d(p=0.5)(torch.ones(2, 4, 2, 2, 2)).flatten(2)  # (N, C, D, H, W)
print("Dropout3d whole channels:", torch.equal(volumes.amin(dim=2), volumes.amax(dim=2)))
with warnings.catch_warnings(record=True) as caught:  # an unbatched (C, H, W) image
    warnings.simplefilter("always")
    nn.Dropout2d(p=0.5)(torch.ones(4, 3, 3))
print(f"{caught[0].category.__name__}: {str(caught[0].message).split(' - ')[0]}")

# AlphaDropout: dropped values are set to SELU's negative limit, then rescaled
alpha = nn.AlphaDropout(p=0.2)
normal = torch.randn(100_000)
kept = alpha(normal)
print("AlphaDropout mean:", round(kept.mean().item(), 1), "std:", round(kept.std().item(), 1),
      "zeros:", (kept == 0).sum().item())
features = nn.FeatureAlphaDropout(p=0.5)(torch.randn(2, 4, 3))  # whole channels, like Dropout1d
print("FeatureAlphaDropout dropped channels:", (features.std(dim=2) == 0).tolist())
