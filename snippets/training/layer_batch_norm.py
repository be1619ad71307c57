"""BatchNorm: statistics per channel over the batch (and H, W); in training it uses the batch's
statistics and updates running_mean/running_var with momentum, in eval it uses the running ones.

Run: python layer_batch_norm.py
"""
import torch
from torch import nn

torch.manual_seed(0)
x = torch.randn(4, 3, 5, 5) * 3 + 2  # (N, C, H, W)
bn = nn.BatchNorm2d(num_features=3)  # one weight and bias per channel C
print("weight:", tuple(bn.weight.shape), "buffers:", [name for name, _ in bn.named_buffers()])
y = bn(x)  # training mode: the batch's own statistics
print("per-channel mean:", y.mean(dim=(0, 2, 3)).abs().max().item() < 1e-5,
      "std:", [round(s, 3) for s in y.std(dim=(0, 2, 3), correction=0).tolist()])

# running = (1 - momentum) * running + momentum * batch statistic (starts at 0 and 1)
print("running_mean:", torch.allclose(bn.running_mean, 0.1 * x.mean(dim=(0, 2, 3))))
unbiased = x.var(dim=(0, 2, 3), correction=1)  # running_var uses the unbiased variance
print("running_var:", torch.allclose(bn.running_var, 0.9 * 1 + 0.1 * unbiased))
print("num_batches_tracked:", bn.num_batches_tracked.item())

bn.eval()  # eval mode: the running statistics, nothing updated
y_eval = bn(x)
print("eval output == train output:", torch.allclose(y_eval, y))
scale = (bn.running_var + bn.eps).sqrt()  # weight is still 1 and bias 0
print("eval uses running stats:", torch.allclose(
    y_eval, (x - bn.running_mean[:, None, None]) / scale[:, None, None], atol=1e-6))
print("num_batches_tracked:", bn.num_batches_tracked.item())

# BatchNorm1d: (N, C) or (N, C, L), statistics per C
bn1 = nn.BatchNorm1d(3)
print("1d:", tuple(bn1(torch.randn(4, 3)).shape), tuple(bn1(torch.randn(4, 3, 7)).shape))
try:
    bn1(torch.randn(1, 3))  # one sample: no variance to compute
except ValueError as error:
    print(f"ValueError: {error}")
bn1.eval()
print("one sample in eval:", tuple(bn1(torch.randn(1, 3)).shape))

# momentum=None: a plain average of all batches so far
batches = [torch.tensor([[i - 1.0, 0.0], [i + 1.0, 2.0]]) for i in range(3)]  # means (i, 1)
average, moving = nn.BatchNorm1d(2, momentum=None), nn.BatchNorm1d(2)
for batch in batches:
    average(batch)
    moving(batch)
print("momentum=None:", average.running_mean.tolist(), "momentum=0.1:",
      [round(m, 3) for m in moving.running_mean.tolist()])
# BatchNorm3d: the same on (N, C, D, H, W)
print("3d:", tuple(nn.BatchNorm3d(3)(torch.randn(2, 3, 2, 4, 4)).shape))
