"""torch.nn.functional activations on the same inputs: relu, gelu (exact and tanh), silu and
every other elementwise one; their in-place forms (relu_, ...); prelu's weight, rrelu's
training flag and glu's halving.

Run: python activation_functions.py
"""
import torch
import torch.nn.functional as F

torch.set_printoptions(precision=4)
x = torch.tensor([-3.0, -1.0, -0.5, 0.0, 0.5, 1.0, 3.0])
functions = {
    "relu": F.relu(x), "leaky_relu(0.1)": F.leaky_relu(x, negative_slope=0.1),
    "gelu": F.gelu(x), "gelu(tanh)": F.gelu(x, approximate="tanh"), "silu": F.silu(x),
    "sigmoid": F.sigmoid(x), "tanh": F.tanh(x),
    # Smooth ReLUs
    "elu": F.elu(x), "celu": F.celu(x), "selu": F.selu(x), "mish": F.mish(x),
    "softplus": F.softplus(x), "softplus(beta=2)": F.softplus(x, beta=2.0),
    # Clipped ones
    "relu6": F.relu6(x), "hardtanh": F.hardtanh(x), "hardtanh(-2, 2)": F.hardtanh(x, -2.0, 2.0),
    "hardsigmoid": F.hardsigmoid(x), "hardswish": F.hardswish(x),
    # Squashers and shrinkers
    "logsigmoid": F.logsigmoid(x), "softsign": F.softsign(x), "tanhshrink": F.tanhshrink(x),
    "softshrink": F.softshrink(x), "hardshrink": F.hardshrink(x),
    "threshold(0.5, -1)": F.threshold(x, 0.5, -1.0),
    "prelu(w=0.25)": F.prelu(x, torch.tensor([0.25])),  # the slope is an argument here
    "rrelu (eval)": F.rrelu(x),  # training=False by default: fixed slope (lower+upper)/2
}
width = max(map(len, functions))
print(" " * width, " ".join(f"{v:6.1f}" for v in x.tolist()))
for name, values in functions.items():
    print(f"{name:<{width}}", " ".join(f"{v + 0.0:6.3f}" for v in values.tolist()))

gap = (F.gelu(x) - F.gelu(x, approximate="tanh")).abs().max().item()
print("gelu exact vs tanh, largest gap:", f"{gap:.4f}")
print("silu == x * sigmoid(x):", torch.allclose(F.silu(x), x * torch.sigmoid(x)))

torch.manual_seed(0)
slopes = F.rrelu(-torch.ones(1000), training=True)  # a random slope per element
print("rrelu training, slopes within [1/8, 1/3]:",
      bool(((-slopes >= 1 / 8) & (-slopes <= 1 / 3)).all()), "distinct:",
      slopes.unique().numel() > 1)

# In-place forms: the trailing underscore, or inplace=True
y = x.clone()
out = F.relu_(y)
print("relu_ returns its input:", out is y, y)
print("hardtanh_:", F.hardtanh_(x.clone()))
print("elu_:", F.elu_(x.clone()))
print("leaky_relu_:", F.leaky_relu_(x.clone()))
print("threshold_:", F.threshold_(x.clone(), 0.5, -1.0))
print("rrelu_ (eval):", F.rrelu_(x.clone()))
print("relu(inplace=True) is the same tensor:", F.relu(y, inplace=True) is y)

# glu: first half * sigmoid(second half), along dim (which must be even)
pair = torch.tensor([[1.0, 2.0, 0.0, 100.0]])
print("glu:", F.glu(pair, dim=-1))
try:
    F.glu(torch.ones(1, 3))
except RuntimeError as err:
    print("glu, odd size:", str(err).splitlines()[0])
