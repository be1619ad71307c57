"""Reductions, cumulative ops, binning, triangles and flips as tensor methods: x.nansum() is
torch.nansum(x), x.cumprod_(0) writes into x.

Run: python methods_other_ops.py
"""
import torch

torch.set_printoptions(precision=4)

x = torch.tensor([[1.0, 2.0, 2.0], [3.0, 0.0, 4.0]])
print("all any:", x.all(), x.any(dim=1), "| count_nonzero:", x.count_nonzero(),
      x.count_nonzero(dim=0))
lo, hi = x.aminmax()
print("aminmax:", lo, hi, "| mode(dim=1):", x.mode(dim=1).values)
print("unique:", x.unique(), "| unique_consecutive:",
      torch.tensor([1, 1, 2, 2, 1]).unique_consecutive())
print("var (unbiased):", x.var(dim=1), "| logsumexp:", x.logsumexp(dim=1))
print("quantile(0.5):", x.quantile(0.5, dim=1))
n = torch.tensor([1.0, float("nan"), 3.0])
print("nansum nanmean nanquantile:", n.nansum(), n.nanmean(), n.nanquantile(0.5))

# Cumulative: the in-place forms write the running result into the tensor
c = torch.tensor([1.0, 2.0, 3.0])
c.cumsum_(0)
print("cumsum_:", c, "| cumprod:", c.cumprod(0))
c.cumprod_(0)
print("cumprod_:", c)
v = torch.tensor([2.0, 1.0, 3.0])
print("cummax:", v.cummax(0).values, "| cummin:", v.cummin(0).values, "| logcumsumexp:",
      v.logcumsumexp(0))

# Binning
h = torch.tensor([0.5, 1.5, 1.5, 2.5])
print("histc:", h.histc(bins=3, min=0, max=3), "| histogram:", h.histogram(bins=3).hist)

# Triangles and diagonals
m = torch.arange(1.0, 10.0).reshape(3, 3)
print("triu:", m.triu(), "tril_:", m.clone().tril_(), "triu_(1):", m.clone().triu_(1), sep="\n")
print("diag:", m.diag(), "| trace:", m.trace())
d = torch.tensor([1.0, 2.0])
print("diag_embed:", d.diag_embed(), "diagflat:", d.diagflat(offset=1), sep="\n")
print("kron:", torch.eye(2).kron(torch.ones(1, 2)), sep="\n")

# Flips and shapes
s = torch.arange(4).reshape(2, 2)
print("flip fliplr flipud:", s.flip(0).tolist(), s.fliplr().tolist(), s.flipud().tolist())
print("rot90:", s.rot90().tolist(), "| ravel:", s.t().ravel(), "| unflatten:",
      s.ravel().unflatten(0, (2, 2)).tolist())
print("broadcast_to:", torch.tensor([1, 2]).broadcast_to(2, 2).tolist())

# Products, distances, statistics
u, w = torch.tensor([1.0, 0.0, 0.0]), torch.tensor([0.0, 1.0, 0.0])
print("cross:", u.cross(w, dim=0), "| dist:", u.dist(w), u.dist(w, p=1))
r = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
print("renorm(p=2, dim=0, maxnorm=1):", r.renorm(2, 0, 1), r.clone().renorm_(2, 0, 1), sep="\n")
obs = torch.tensor([[1.0, 2.0, 3.0], [2.0, 4.0, 7.0]])  # variables in rows
print("cov:", obs.cov(), "corrcoef:", obs.corrcoef(), sep="\n")
z = torch.tensor([1 + 2j]).conj().imag  # a view with the negative bit set, not negated yet
print("resolve_neg:", z.is_neg(), z.resolve_neg().is_neg(), z.resolve_neg())
