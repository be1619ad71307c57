"""Running totals and differences: cumsum, cumprod, cummax, cummin, logcumsumexp and diff.

Run: python cumulative_diff.py
"""
import torch

x = torch.tensor([3, 1, 4, 1, 5])
print("cumsum:", torch.cumsum(x, dim=0), "method:", x.cumsum(0))  # dim is required
print("cumprod:", torch.cumprod(x, dim=0))
print("cumsum of bool:", torch.tensor([True, False, True]).cumsum(0))  # counts, as int64
m = torch.tensor([[1, 2], [3, 4]])
print(f"cumsum dim=1:\n{torch.cumsum(m, dim=1)}")

best = torch.cummax(x, dim=0)  # running maximum and where it was reached
print("cummax:", best.values, best.indices)
low = torch.cummin(x, dim=0)
print("cummin:", low.values, low.indices)

logits = torch.tensor([0.0, 0.0, 0.0, 1000.0])
stable = torch.logcumsumexp(logits, dim=0)  # log(cumsum(exp)) without overflow
print("logcumsumexp:", [round(v, 4) for v in stable.tolist()])

print("diff:", torch.diff(x), "method:", x.diff())  # one element shorter
print("diff n=2:", torch.diff(x, n=2))  # the difference of the difference
print("diff prepend=0:", torch.diff(x, prepend=torch.tensor([0])))  # undoes cumsum
print("diff of cumsum:", torch.diff(x.cumsum(0), prepend=torch.tensor([0])))
