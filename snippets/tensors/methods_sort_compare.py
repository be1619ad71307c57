"""Sorting, comparing and matrix products as tensor methods: x.sort() is torch.sort(x),
x.lt_(y) writes the comparison into x as 1.0 / 0.0.

Run: python methods_sort_compare.py
"""
import torch

x = torch.tensor([3.0, 1.0, 2.0, 1.0])
print("sort:", x.sort().values, x.sort(descending=True, stable=True).indices, "| argsort:",
      x.argsort(stable=True))
print("msort:", torch.tensor([[2, 1], [1, 3]]).msort().tolist())  # along dim 0
print("topk(2):", x.topk(2).values, "| kthvalue(2):", x.kthvalue(2).values)
print("min:", x.min(), x.min(dim=0).indices, "| argmin:", x.argmin())
m = torch.tensor([[1.0, 5.0], [4.0, 2.0]])
print("amax amin:", m.amax(dim=1), m.amin(dim=0))

y = torch.tensor([1.0, 1.0, 2.0, 2.0])
print("eq ne:", x.eq(y), x.ne(y))
print("lt le gt ge:", x.lt(y), x.le(y), x.gt(y), x.ge(y))
# The in-place forms keep the tensor's dtype: True is written as 1.0
print("eq_ ne_:", x.clone().eq_(y), x.clone().ne_(y))
print("lt_ le_ gt_ ge_:", x.clone().lt_(y), x.clone().le_(y), x.clone().gt_(y), x.clone().ge_(y))
print("equal (one bool):", x.equal(x.clone()), "| allclose:", x.allclose(x + 1e-9), "| isclose:",
      x.isclose(y))

n = torch.tensor([1.0, float("nan"), float("inf"), float("-inf")])
print("maximum minimum:", n.maximum(torch.zeros(4)), n.minimum(torch.zeros(4)))  # NaN wins
print("fmax fmin:", n.fmax(torch.zeros(4)), n.fmin(torch.zeros(4)))              # NaN loses
print("isnan isinf isfinite:", n.isnan(), n.isinf(), n.isfinite())
print("isposinf isneginf:", n.isposinf(), n.isneginf())
print("isreal:", torch.tensor([1 + 0j, 1j]).isreal())

a = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
v = torch.tensor([1.0, 1.0])
print("mm:", a.mm(a).tolist(), "| matmul:", a.matmul(v), "| dot:", v.dot(v), "| outer:",
      v.outer(v).tolist())
print("bmm:", torch.stack([a, a]).bmm(torch.stack([a, a])).shape)
