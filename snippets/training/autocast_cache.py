"""The autocast weight cache: is_autocast_cache_enabled inside and outside a region,
cache_enabled=False.

Run: python autocast_cache.py
"""
import torch

lin = torch.nn.Linear(4, 4)
x = torch.ones(2, 4)
print("outside:", torch.is_autocast_cache_enabled())
with torch.autocast("cpu", dtype=torch.bfloat16):
    print("inside:", torch.is_autocast_cache_enabled())  # bf16 copies of weights are reused
    y = lin(lin(x))  # lin.weight is cast once, then read from the cache
    print(y.dtype)
with torch.autocast("cpu", dtype=torch.bfloat16, cache_enabled=False):
    print("cache_enabled=False:", torch.is_autocast_cache_enabled())  # cast on every use
    print(lin(x).dtype)
print("after:", torch.is_autocast_cache_enabled())
