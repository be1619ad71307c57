"""manual_seed, rand, rand_like, randn, randn_like: reproducible samples.

Run: python rand_randn.py
"""
import torch

torch.manual_seed(0)   # seeds the CPU generator (and every CUDA device's)
u = torch.rand(2, 3)   # uniform on [0, 1)
print(u)
print(torch.rand_like(u, dtype=torch.float64))  # shape of u, another dtype

torch.manual_seed(0)   # the same seed gives the same numbers again
print(torch.equal(torch.rand(2, 3), u))

n = torch.randn(4)     # standard normal: mean 0, std 1
print(n)
print(torch.randn_like(n))
print(5.0 + 0.1 * torch.randn(3))  # mean 5, std 0.1: shift and scale

# A private stream, unaffected by other random calls
generator = torch.Generator().manual_seed(42)
print(torch.rand(2, generator=generator))

try:  # rand and rand_like need a floating-point dtype
    torch.rand_like(torch.zeros(2, dtype=torch.int64))
except NotImplementedError as error:
    print(f"NotImplementedError: {error}")
