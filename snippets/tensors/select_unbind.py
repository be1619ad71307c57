"""torch.select takes one index along a dim (the dim disappears); torch.unbind takes all of them.

Run: python select_unbind.py
"""
import torch

x = torch.arange(12).view(3, 4)
col = torch.select(x, 1, 2)  # the same as x[:, 2]
print("select(x, 1, 2):", col, tuple(col.shape))
print("select(x, 0, -1):", torch.select(x, 0, -1))  # the same as x[-1]
col[0] = 100  # a view: x changes
print("x[0] after writing to the view:", x[0])

rows = torch.unbind(x)  # a tuple: x[0], x[1], x[2]
print("unbind(x):", rows)
cols = torch.unbind(x, dim=1)  # one tensor per column, each a view
print("unbind(x, dim=1):", len(cols), "tensors, the last:", cols[3])
print("cols[i] is select(x, 1, i):", all(torch.equal(c, torch.select(x, 1, i))
                                         for i, c in enumerate(cols)))
print("stack undoes unbind:", torch.equal(torch.stack(rows), x))
