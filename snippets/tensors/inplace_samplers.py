"""Tensor.uniform_, normal_, bernoulli_, random_, exponential_, geometric_, cauchy_, log_normal_:
fill an existing tensor with samples, in place.

Run: python inplace_samplers.py
"""
import torch

torch.manual_seed(0)
w = torch.empty(2, 3)
print("uniform_(-1, 1):", w.uniform_(-1, 1))  # returns w itself, filled
print("normal_(10, 0.1):", w.normal_(10, 0.1))
print("bernoulli_(0.5):", w.bernoulli_(0.5))
print("random_(5, 8):", w.random_(5, 8))      # integers in [5, 8), as floats
print("random_(), int8:", torch.empty(6, dtype=torch.int8).random_())
print("random_(), float32:", torch.empty(3).random_())  # [0, 2**24], not [0, 1)

# What the parameters mean, read from 100000 draws
big = torch.empty(100_000)
print(f"exponential_(2): mean {big.exponential_(2).mean():.3f}")  # a rate: mean 1/2
big.geometric_(0.25)  # trials up to the first success: 1, 2, 3, ...
print(f"geometric_(0.25): min {big.min():.0f}, mean {big.mean():.2f}")
big.log_normal_(0, 1)  # mean and std of log(x), not of x
print(f"log_normal_(0, 1): median {big.median():.3f}, log mean {big.log().mean():.3f}")
big.cauchy_(0, 1)      # median 0, no mean: huge outliers
print(f"cauchy_(0, 1): median {big.median():.3f}, largest |x| {big.abs().max():.0f}")

# In place on a parameter: only under no_grad (what torch.nn.init does)
param = torch.empty(3, requires_grad=True)
try:
    param.normal_()
except RuntimeError as error:
    print(f"RuntimeError: {error}")
with torch.no_grad():
    param.normal_()
print("param:", param)

try:  # integer tensors: random_, geometric_ and bernoulli_ only
    torch.empty(2, dtype=torch.int64).normal_()
except NotImplementedError as error:
    print(f"NotImplementedError: {error}")
