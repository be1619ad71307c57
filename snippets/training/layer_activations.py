"""Activations: the common elementwise ones (ReLU, LeakyReLU, GELU, SiLU, Sigmoid, Tanh) and
every other one on the same inputs; PReLU learns its slope; GLU halves a dimension; Softmax,
LogSoftmax and Softmin need dim.

Run: python layer_activations.py
"""
import torch
from torch import nn

torch.manual_seed(0)
x = torch.tensor([-3.0, -1.0, -0.5, 0.0, 0.5, 1.0, 3.0])
activations = {
    "ReLU": nn.ReLU(), "LeakyReLU(0.1)": nn.LeakyReLU(negative_slope=0.1),
    "GELU": nn.GELU(), "GELU(tanh)": nn.GELU(approximate="tanh"), "SiLU": nn.SiLU(),
    "Sigmoid": nn.Sigmoid(), "Tanh": nn.Tanh(),
    # The others, by family: smooth ReLUs, clipped ones, shrinkers
    "ELU": nn.ELU(), "CELU": nn.CELU(), "SELU": nn.SELU(), "Mish": nn.Mish(),
    "Softplus": nn.Softplus(), "ReLU6": nn.ReLU6(), "Hardtanh": nn.Hardtanh(),
    "Hardsigmoid": nn.Hardsigmoid(), "Hardswish": nn.Hardswish(), "LogSigmoid": nn.LogSigmoid(),
    "Softsign": nn.Softsign(), "Tanhshrink": nn.Tanhshrink(), "Softshrink": nn.Softshrink(),
    "Hardshrink": nn.Hardshrink(), "Threshold(0.5, -1)": nn.Threshold(0.5, -1.0),
    "PReLU": nn.PReLU(), "RReLU (eval)": nn.RReLU().eval(),
}
width = max(map(len, activations))
print(" " * width, " ".join(f"{v:6.1f}" for v in x.tolist()))
with torch.no_grad():
    for name, activation in activations.items():
        values = activation(x) + 0.0  # + 0.0 turns -0.0 into 0.0
        print(f"{name:<{width}}", " ".join(f"{v:6.3f}" for v in values.tolist()))

gap = (nn.GELU()(x) - nn.GELU(approximate="tanh")(x)).abs().max().item()
print("GELU exact vs tanh, largest gap:", f"{gap:.4f}")
print("SiLU = x * sigmoid(x):", torch.allclose(nn.SiLU()(x), x * torch.sigmoid(x)))
print("PReLU parameters:", [(n, p.tolist()) for n, p in nn.PReLU().named_parameters()])
rrelu = nn.RReLU()  # training mode: a random slope per element
print("RReLU training:", [round(v, 3) for v in rrelu(x)[:3].tolist()])
# GLU: first half * sigmoid(second half), along dim
print("GLU:", nn.GLU(dim=-1)(torch.tensor([[1.0, 2.0, 0.0, 100.0]])).tolist())

logits = torch.tensor([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]])  # (N, C)
probs = nn.Softmax(dim=1)(logits)  # over the classes of each row
print("Softmax(dim=1):", [[round(p, 4) for p in row] for row in probs.tolist()],
      "row sums:", [round(s, 4) for s in probs.sum(dim=1).tolist()])
wrong = nn.Softmax(dim=0)(logits)  # the wrong dim: across the batch
print("Softmax(dim=0) row sums:", [round(s, 4) for s in wrong.sum(dim=1).tolist()])
print("LogSoftmax == log(Softmax):", torch.allclose(nn.LogSoftmax(dim=1)(logits), probs.log()))
print("Softmin == Softmax(-x):",
      torch.allclose(nn.Softmin(dim=1)(logits), nn.Softmax(dim=1)(-logits)))
image = torch.randn(1, 3, 2, 2)  # Softmax2d: over the channels of each pixel
print("Softmax2d == Softmax(dim=-3):",
      torch.allclose(nn.Softmax2d()(image), nn.Softmax(dim=-3)(image)))
