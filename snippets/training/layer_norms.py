"""LayerNorm, GroupNorm, InstanceNorm2d and RMSNorm: statistics per sample, over the last
dimensions or over groups of channels; the same in train and eval. RMSNorm does not subtract
the mean.

Run: python layer_norms.py
"""
import torch
from torch import nn

torch.manual_seed(0)
tokens = torch.randn(2, 5, 8) * 3 + 2  # (N, L, features)
ln = nn.LayerNorm(normalized_shape=8)  # the last dimension(s): here the 8 features
y = ln(tokens)
print("weight:", tuple(ln.weight.shape), "buffers:", list(ln.buffers()))
print("per-token mean 0:", y.mean(dim=-1).abs().max().item() < 1e-5,
      "std 1:", torch.allclose(y.std(dim=-1, correction=0), torch.ones(2, 5), atol=1e-4))
ln.eval()
print("same in eval:", torch.allclose(ln(tokens), y))

images = torch.randn(2, 6, 4, 4) * 5 + 1  # (N, C, H, W)
whole = nn.LayerNorm([6, 4, 4])  # C, H and W of each image together
print("image LayerNorm weight:", tuple(whole.weight.shape))  # one per element, not per channel

# GroupNorm: the C channels in num_groups groups, statistics per sample and group
gn = nn.GroupNorm(num_groups=3, num_channels=6)
grouped = gn(images).view(2, 3, -1)  # 2 channels * 4 * 4 values per group
print("GroupNorm per group mean 0:", grouped.mean(dim=-1).abs().max().item() < 1e-5,
      "weight:", tuple(gn.weight.shape))
print("1 group == LayerNorm over (C, H, W):",
      torch.allclose(nn.GroupNorm(1, 6)(images), whole(images), atol=1e-5))

# InstanceNorm2d: one group per channel, and no weight or running stats by default
instance = nn.InstanceNorm2d(6)
print("InstanceNorm2d parameters:", list(instance.parameters()),
      "buffers:", list(instance.buffers()))
print("InstanceNorm2d == GroupNorm(6, 6):",
      torch.allclose(instance(images), nn.GroupNorm(6, 6)(images), atol=1e-5))

# RMSNorm: x / sqrt(mean(x²) + eps) * weight, the mean is not subtracted
rms = nn.RMSNorm(4)
v = torch.tensor([[1.0, 2.0, 3.0, 4.0]])
print("RMSNorm:", [round(a, 4) for a in rms(v)[0].tolist()], "eps:", rms.eps)
eps = torch.finfo(v.dtype).eps  # eps=None uses the dtype's machine epsilon
print("formula:", torch.allclose(rms(v), v / (v.pow(2).mean(-1, keepdim=True) + eps).sqrt()))
print("LayerNorm:", [round(a, 4) for a in nn.LayerNorm(4)(v)[0].tolist()])
