"""More reductions: prod, logsumexp, std / var (and std_mean, var_mean), median, mode,
quantile, the NaN-skipping nansum / nanmean / nanmedian / nanquantile, aminmax, count_nonzero,
all / any, dist, unique and unique_consecutive.

Run: python reductions_more.py
"""
import torch

x = torch.tensor([1.0, 2.0, 3.0, 4.0])
print("prod:", torch.prod(x), "int prod:", torch.tensor([2, 3, 4]).prod())
big = torch.tensor([1000.0, 1000.0])
print("logsumexp:", round(torch.logsumexp(big, dim=0).item(), 3))  # stable: no overflow
print("logsumexp of [0, 0] (log 2):", round(torch.logsumexp(torch.zeros(2), dim=0).item(), 4))

print("std (unbiased, correction=1):", round(torch.std(x).item(), 4))
print("std correction=0:", round(torch.std(x, correction=0).item(), 4))
s, m = torch.std_mean(x)  # (std, mean): std comes first
print("std_mean:", round(s.item(), 4), m.item())
v, m = torch.var_mean(x, correction=0)
print("var_mean correction=0:", v.item(), m.item())

print("median of 4 values:", torch.median(x))  # the lower of the two middle values
print("quantile 0.5:", torch.quantile(x, 0.5))  # interpolates: the usual median
print("quantile q=[0.25, 0.75]:", torch.quantile(x, torch.tensor([0.25, 0.75])))
votes = torch.tensor([[1, 2, 2, 3], [4, 4, 5, 4]])
mode = torch.mode(votes, dim=1)  # the most frequent value per row, and an index of it
print("mode:", mode.values)

n = torch.tensor([1.0, float("nan"), 3.0, 4.0])
print("sum / mean / median with NaN:", n.sum(), n.mean(), n.median())
print("nansum / nanmean:", torch.nansum(n), round(torch.nanmean(n).item(), 4))
print("nanmedian:", torch.nanmedian(n), "method:", n.nanmedian())
print("nanquantile 0.5:", torch.nanquantile(n, 0.5))

lo, hi = torch.aminmax(torch.tensor([[3, 7], [1, 5]]))
print("aminmax:", lo, hi)
print("aminmax dim=0:", tuple(torch.aminmax(torch.tensor([[3, 7], [1, 5]]), dim=0)))
flags = torch.tensor([[0, 1, 2], [0, 0, 3]])
print("count_nonzero:", torch.count_nonzero(flags), "dim=1:", torch.count_nonzero(flags, dim=1))
print("all / any dim=1:", torch.all(flags > 0, dim=1), torch.any(flags > 0, dim=1))
print("dist p=2:", torch.dist(torch.tensor([0.0, 0.0]), torch.tensor([3.0, 4.0])))
print("dist p=1:", torch.dist(torch.tensor([0.0, 0.0]), torch.tensor([3.0, 4.0]), p=1))

ids = torch.tensor([3, 1, 3, 3, 2, 1])
u, inverse, counts = torch.unique(ids, return_inverse=True, return_counts=True)
print("unique (sorted):", u, "inverse:", inverse, "counts:", counts)
print("rebuilt from inverse:", u[inverse])
runs = torch.unique_consecutive(ids, return_counts=True)  # only neighbours merge
print("unique_consecutive:", runs[0], "counts:", runs[1])
