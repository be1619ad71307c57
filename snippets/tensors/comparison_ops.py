"""Element-wise comparisons: eq/ne/lt/le/gt/ge, isclose, isin, isinf family, maximum vs fmax,
msort.

Run: python comparison_ops.py
"""
import torch

a = torch.tensor([1.0, 2.0, 3.0, float("nan")])
b = torch.tensor([1.0, 3.0, 2.0, float("nan")])
print("eq:", torch.eq(a, b), "| a == b:", a == b)  # NaN is equal to nothing, itself included
print("ne:", torch.ne(a, b))
print("lt:", torch.lt(a, b), "| le:", torch.le(a, b))
print("gt:", torch.gt(a, b), "| ge 2:", torch.ge(a, 2))  # the other side may be a number

u = torch.tensor([1.0, 1.0, float("nan")])
v = torch.tensor([1.0 + 1e-6, 1.1, float("nan")])
print("isclose:", torch.isclose(u, v), "| equal_nan:", torch.isclose(u, v, equal_nan=True))
print("isin:", torch.isin(torch.tensor([1, 2, 3, 4]), torch.tensor([2, 4])))

s = torch.tensor([float("inf"), float("-inf"), 1.0, float("nan")])
print("isinf:", torch.isinf(s), "| isposinf:", torch.isposinf(s), "| isneginf:",
      torch.isneginf(s))
print("isreal:", torch.isreal(torch.tensor([1 + 0j, 1 + 1j])), torch.isreal(torch.tensor([2.0])))

p = torch.tensor([1.0, float("nan"), 5.0])
q = torch.tensor([4.0, 2.0, float("nan")])
print("maximum:", torch.maximum(p, q), "| minimum:", torch.minimum(p, q))  # NaN propagates
print("fmax:", torch.fmax(p, q), "| fmin:", torch.fmin(p, q))  # NaN loses to a number
print(f"msort (along dim 0):\n{torch.msort(torch.tensor([[3, 1], [1, 2], [2, 0]]))}")
