"""Normalization functions: F.batch_norm with running statistics and its training flag,
layer_norm, group_norm, instance_norm, local_response_norm, and F.normalize (unit vectors).

Run: python functional_norms.py
"""
import torch
import torch.nn.functional as F

torch.set_printoptions(precision=4)


def r(t):
    return t.round(decimals=4) + 0.0  # hides last-digit noise and -0.0


x = torch.tensor([[1.0, 10.0], [3.0, 20.0], [5.0, 30.0]])  # (N=3, C=2)
mean, var = torch.zeros(2), torch.ones(2)  # running statistics, updated in place
y = F.batch_norm(x, mean, var, training=True, momentum=0.1)  # normalizes with the batch's stats
print("batch_norm training:", r(y), sep="\n")
print("running_mean after one step:", mean, "running_var:", var)  # var is the unbiased one
print("batch_norm default (training=False) uses the running stats:",
      torch.allclose(F.batch_norm(x, mean, var), (x - mean) / torch.sqrt(var + 1e-5)))
w, b = torch.tensor([2.0, 1.0]), torch.tensor([0.0, 100.0])
print("batch_norm weight, bias:", r(F.batch_norm(x, None, None, w, b, training=True)), sep="\n")

seq = torch.tensor([[[1.0, 2.0, 3.0, 6.0]]])  # (N, L, features=4)
ln = F.layer_norm(seq, normalized_shape=(4,))  # over the last dims, per sample
print("layer_norm:", r(ln), "mean, std:", round(ln.mean().item(), 4) + 0.0,
      round(ln.std(unbiased=False).item(), 4))

maps = torch.arange(8.0).reshape(1, 4, 2)  # (N, C=4, L=2)
g2 = F.group_norm(maps, num_groups=2)  # channels (0, 1) and (2, 3) share statistics
print("group_norm(2 groups):", r(g2), sep="\n")
print("group_norm(1 group) == layer_norm over (C, L):",
      torch.allclose(F.group_norm(maps, 1), F.layer_norm(maps, (4, 2))))
print("instance_norm == group_norm(C groups):",
      torch.allclose(F.instance_norm(maps), F.group_norm(maps, 4)))

lrn = F.local_response_norm(torch.ones(1, 3, 1), size=3, alpha=3.0, beta=1.0, k=1.0)
# x / (k + alpha * mean of x^2 over nearby channels)^beta
print("local_response_norm:", lrn.flatten())

v = torch.tensor([[3.0, 4.0], [0.0, 0.0]])
print("normalize (L2, dim=1):", F.normalize(v, dim=1))  # eps keeps the zero row at zero
print("normalize p=1:", F.normalize(v, p=1.0, dim=1))
