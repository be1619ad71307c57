"""torch.max / min with and without dim, versus amax / amin; and what NaN does to them.

Run: python max_amax.py
"""
import torch

x = torch.tensor([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]])
print("max(x):", torch.max(x), "min(x):", torch.min(x))  # no dim: one value, no index
mx = torch.max(x, dim=1)  # with dim: a named tuple (values, indices)
mn = torch.min(x, dim=1)
print("max dim=1:", mx.values, mx.indices)
print("min dim=1:", mn.values, mn.indices)
print("amax dim=1:", torch.amax(x, dim=1), "amin dim=1:", torch.amin(x, dim=1))  # values only
print("amax dim=(0, 1):", torch.amax(x, dim=(0, 1)))  # several dims at once
print(f"max(x, other): element-wise\n{torch.max(x, torch.full_like(x, 3.0))}")

n = torch.tensor([[1.0, float("nan"), 3.0], [4.0, 5.0, 6.0]])
print("NaN, max and amax:", torch.max(n), torch.amax(n))  # NaN propagates
r = torch.max(n, dim=1)
print("NaN, max dim=1:", r.values, r.indices)  # the index points at the NaN
print("NaN, amax dim=1:", torch.amax(n, dim=1), "argmax dim=1:", torch.argmax(n, dim=1))
skip = torch.where(torch.isnan(n), float("-inf"), n)  # to skip NaN, replace it first
print("NaN replaced by -inf:", torch.amax(skip, dim=1))

a = torch.tensor([1.0, 3.0, 3.0], requires_grad=True)
torch.amax(a).backward()
print("gradient of amax, tie:", a.grad)  # split evenly between the tied maxima
a.grad = None
torch.max(a, dim=0).values.backward()
print("gradient of max dim=0, tie:", a.grad)  # all of it to the index max returned
