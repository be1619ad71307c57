"""Linear layers: Linear's weight is (out, in) and it acts on the last dimension; Bilinear,
Identity; LazyLinear infers in_features at its first call.

Run: python layer_linear.py
"""
import torch
from torch import nn

torch.manual_seed(0)
linear = nn.Linear(in_features=4, out_features=3)
print("weight:", tuple(linear.weight.shape), "bias:", tuple(linear.bias.shape))  # (out, in)
x = torch.randn(2, 5, 4)  # (*, in): any leading dimensions
y = linear(x)
print("output:", tuple(y.shape))
print("x @ W.T + b:", torch.allclose(y, x @ linear.weight.T + linear.bias))
try:
    linear(torch.randn(2, 3))  # the last dimension must be in_features
except RuntimeError as error:
    print(f"RuntimeError: {error}")

# Bilinear: y = x1ᵀ A x2 + b, one matrix A per output feature
bilinear = nn.Bilinear(in1_features=4, in2_features=6, out_features=3)
x1, x2 = torch.randn(2, 4), torch.randn(2, 6)
print("bilinear weight:", tuple(bilinear.weight.shape), "output:", tuple(bilinear(x1, x2).shape))
formula = torch.einsum("ni,oij,nj->no", x1, bilinear.weight, x2) + bilinear.bias
print("einsum:", torch.allclose(bilinear(x1, x2), formula, atol=1e-6))

# Identity ignores its arguments and returns its input: a placeholder
head = nn.Identity(54, unused="anything")
print("identity:", head(x) is x)

# LazyLinear: in_features is unknown until the first batch
lazy = nn.LazyLinear(out_features=3)
print(lazy)
try:
    sum(p.numel() for p in lazy.parameters())
except ValueError as error:
    print(f"ValueError: {str(error).split('. ')[0]}.")
lazy(torch.randn(2, 7))  # a dummy batch fixes in_features = 7
print(lazy, tuple(lazy.weight.shape))  # now a plain Linear
print("parameters:", sum(p.numel() for p in lazy.parameters()))
