"""torch.nn.init: every initializer fills a tensor in place, without recording it for autograd.

Run: python module_init.py
"""
import warnings

import torch
from torch import nn

torch.manual_seed(0)
w = torch.empty(256, 128)  # fan_out 256, fan_in 128 (a Linear(128, 256) weight)


def stats(name, t):
    print(f"{name:16} mean {t.mean().item():+.3f}  std {t.std().item():.3f}  "
          f"min {t.min().item():+.3f}  max {t.max().item():+.3f}")


# Distributions: the bounds and spreads come from the fans and the gain
stats("uniform_", nn.init.uniform_(w, a=-0.1, b=0.1))
stats("normal_", nn.init.normal_(w, mean=0.0, std=0.02))
stats("trunc_normal_", nn.init.trunc_normal_(w, std=0.02, a=-0.04, b=0.04))
stats("xavier_uniform_", nn.init.xavier_uniform_(w))  # bound sqrt(6 / (128 + 256)) = 0.125
stats("xavier_normal_", nn.init.xavier_normal_(w))    # std sqrt(2 / (128 + 256)) = 0.072
gain = nn.init.calculate_gain("relu")
print("calculate_gain('relu'):", round(gain, 4))
# bound sqrt(6 / 128)
stats("kaiming_uniform_", nn.init.kaiming_uniform_(w, nonlinearity="relu"))
stats("kaiming_normal_", nn.init.kaiming_normal_(w, mode="fan_out", nonlinearity="relu"))
q = nn.init.orthogonal_(torch.empty(4, 4))
print("orthogonal_: q @ q.T == I:", torch.allclose(q @ q.T, torch.eye(4), atol=1e-6))
s = nn.init.sparse_(torch.empty(6, 3), sparsity=0.5)  # half of each column set to zero
print("sparse_ zeros per column:", (s == 0).sum(dim=0).tolist())

# Constants and structure
print("constant_:", nn.init.constant_(torch.empty(3), 0.5))
print("ones_:", nn.init.ones_(torch.empty(3)), "zeros_:", nn.init.zeros_(torch.empty(3)))
print("eye_:", nn.init.eye_(torch.empty(2, 3)))
conv = nn.init.dirac_(torch.empty(2, 2, 3))  # a Conv1d weight that passes its input through
x = torch.randn(1, 2, 5)
print("dirac_ conv is identity:", torch.equal(nn.functional.conv1d(x, conv, padding=1), x))

# In place on a parameter that requires grad: no graph is recorded
layer = nn.Linear(2, 2)
nn.init.zeros_(layer.weight)
print("still a leaf:", layer.weight.is_leaf, "grad_fn:", layer.weight.grad_fn)

# The names without the trailing underscore are deprecated aliases
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    nn.init.uniform(torch.empty(2))
print(f"{caught[0].category.__name__}: {str(caught[0].message).splitlines()[0]}")
