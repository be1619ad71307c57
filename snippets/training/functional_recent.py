"""Two functions newer than the others of their family: F.rms_norm (root-mean-square
normalization, no mean subtracted) and F.lp_pool3d.

Run: python functional_recent.py
"""
import torch
import torch.nn.functional as F

torch.set_printoptions(precision=4)
x = torch.tensor([[3.0, -4.0, 0.0, 0.0]])
rms = x.pow(2).mean(dim=-1, keepdim=True).sqrt()  # sqrt(25 / 4) = 2.5
y = F.rms_norm(x, normalized_shape=(4,), eps=1e-6)
print("rms_norm:", y, "== x / rms:", torch.allclose(y, x / rms))
print("rms_norm with weight:",
      F.rms_norm(x, (4,), weight=torch.tensor([2.0, 1.0, 1.0, 1.0]), eps=1e-6))
print("layer_norm subtracts the mean, rms_norm does not:",
      F.layer_norm(x, (4,)).mean().abs().item() < 1e-6, round(y.mean().item(), 4))

cube = torch.arange(8.0).reshape(1, 1, 2, 2, 2)
print("lp_pool3d p=1 (sum):", F.lp_pool3d(cube, 1, 2).flatten())
print("lp_pool3d p=2 on ones:", F.lp_pool3d(torch.ones(1, 1, 2, 2, 2), 2, 2).flatten())
