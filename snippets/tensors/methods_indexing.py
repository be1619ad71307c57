"""Selecting, scattering and index-writing as tensor methods: x.gather(1, i) is
torch.gather(x, 1, i); x.index_add_(0, i, src) writes into x.

Run: python methods_indexing.py
"""
import warnings

import torch

# index_reduce is a beta API and warns once; the scatter page shows the warning
warnings.filterwarnings("ignore", message="index_reduce")

x = torch.tensor([[10, 20, 30], [40, 50, 60]])
i = torch.tensor([[2, 0], [1, 1]])
print("gather:", x.gather(1, i).tolist(), "| take_along_dim:",
      x.take_along_dim(i, dim=1).tolist())
print("index_select:", x.index_select(1, torch.tensor([2, 0])).tolist(), "| take (flat):",
      x.take(torch.tensor([0, 5])))
mask = x > 25
print("masked_select:", x.masked_select(mask), "| argwhere:", mask.argwhere().tolist())
print("where:", x.where(mask, 0).tolist())  # x where mask, else 0

# Out of place: a new tensor, x unchanged
z = torch.zeros(2, 3, dtype=torch.long)
src = torch.ones(2, 2, dtype=torch.long)
print("scatter:", z.scatter(1, i, src).tolist(), "| scatter_add:",
      z.scatter_add(1, i, src).tolist())
print("scatter_reduce amax:", z.scatter_reduce(1, i, x[:, :2], reduce="amax").tolist())
rows = torch.tensor([1, 0])
print("index_add:", z.index_add(0, rows, x).tolist())
print("index_copy:", z.index_copy(0, rows, x).tolist())
print("index_reduce prod:",
      x.index_reduce(0, torch.tensor([0, 0]), x, "prod", include_self=False).tolist())
print("index_fill:", x.index_fill(1, torch.tensor([0]), -1).tolist())
print("index_put:",
      x.index_put((torch.tensor([0, 1]), torch.tensor([2, 0])), torch.tensor([7, 8])).tolist())

# The *_scatter functions embed src into a copy of x: the out-of-place slice assignment
m = torch.zeros(3, 3)
print("diagonal_scatter:", m.diagonal_scatter(torch.ones(3)).tolist())
print("select_scatter:", m.select_scatter(torch.ones(3), 0, 1).tolist())
print("slice_scatter:", m.slice_scatter(torch.ones(3, 1), dim=1, start=2).tolist())

# In place: the result is written into the tensor itself
acc = torch.zeros(3)
# repeated index: summed
acc.index_add_(0, torch.tensor([0, 2, 0]), torch.tensor([1.0, 2.0, 3.0]))
print("index_add_:", acc)
acc.index_copy_(0, torch.tensor([1]), torch.tensor([9.0]))
print("index_copy_:", acc)
acc.index_fill_(0, torch.tensor([2]), -1.0)
print("index_fill_:", acc)
acc.index_put_((torch.tensor([0, 0]),), torch.tensor([1.0, 1.0]), accumulate=True)
print("index_put_ accumulate:", acc)
acc.index_reduce_(0, torch.tensor([1, 1]), torch.tensor([2.0, 15.0]), "amax")
print("index_reduce_ amax:", acc)
acc.put_(torch.tensor([2]), torch.tensor([0.5]))  # flat index, as take
print("put_:", acc)
s = torch.zeros(4)
s.scatter_add_(0, torch.tensor([0, 0, 3]), torch.tensor([1.0, 2.0, 3.0]))
print("scatter_add_:", s)
s.scatter_reduce_(0, torch.tensor([0, 3]), torch.tensor([10.0, 1.0]), reduce="amax")
print("scatter_reduce_ amax:", s)
