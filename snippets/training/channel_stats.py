"""Per-channel mean and std of an image dataset: stack + view + mean/std.

The dataset is synthetic: nothing is downloaded.

Run: python channel_stats.py
"""
import torch

torch.manual_seed(0)
true_mean = torch.tensor([0.5, 0.3, 0.1]).view(3, 1, 1)
true_std = torch.tensor([0.20, 0.10, 0.05]).view(3, 1, 1)
# 100 RGB images of 8x8 pixels
dataset = [torch.randn(3, 8, 8) * true_std + true_mean for _ in range(100)]

images = torch.stack(dataset, dim=3)  # [3, 8, 8, 100]: channel first
print(images.shape)
per_channel = images.view(3, -1)      # one row per channel: [3, 6400]
mean, std = per_channel.mean(dim=1), per_channel.std(dim=1)
print(mean, std)

batch = torch.stack(dataset)  # the usual [N, C, H, W] works too:
print(batch.mean(dim=(0, 2, 3)), batch.std(dim=(0, 2, 3)))  # all but C
mixed = batch.view(3, -1).mean(dim=1)
print(mixed, "<- view(3, -1) of [N, C, H, W] mixes channels")

normalized = (batch - mean.view(1, 3, 1, 1)) / std.view(1, 3, 1, 1)
print(normalized.mean(dim=(0, 2, 3)).abs().max() < 1e-5,
      normalized.std(dim=(0, 2, 3)))
