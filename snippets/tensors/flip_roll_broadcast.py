"""Rearranging and broadcasting: flip, fliplr / flipud, rot90, roll, ravel, unflatten,
atleast_1d/2d/3d, broadcast_to / broadcast_tensors / broadcast_shapes, meshgrid,
cartesian_prod and combinations.

Run: python flip_roll_broadcast.py
"""
import torch

m = torch.arange(6).reshape(2, 3)
print(f"flip dims=(1,):\n{torch.flip(m, dims=(1,))}")  # reverse the columns
print(f"fliplr:\n{torch.fliplr(m)}\nflipud:\n{torch.flipud(m)}")
print(f"rot90 (counter-clockwise):\n{torch.rot90(m)}")
print(f"rot90 k=-1 (clockwise):\n{torch.rot90(m, k=-1)}")
v = torch.arange(5)
print("roll 2:", torch.roll(v, 2), "roll -1:", v.roll(-1))  # wraps around
print(f"roll shifts=1, dims=1:\n{torch.roll(m, shifts=1, dims=1)}")
print("roll without dims flattens:", torch.roll(m, 1).tolist())

print("ravel:", torch.ravel(m))  # always 1-D
print("unflatten:", tuple(torch.unflatten(torch.zeros(2, 12), 1, (3, -1)).shape))
s = torch.tensor(7)
print("atleast_1d/2d/3d:",
      [tuple(f(s).shape) for f in (torch.atleast_1d, torch.atleast_2d, torch.atleast_3d)])
print("atleast_2d of a vector:", tuple(torch.atleast_2d(v).shape))

print(f"broadcast_to:\n{torch.broadcast_to(torch.tensor([1, 2, 3]), (2, 3))}")
col, row = torch.broadcast_tensors(torch.tensor([[1], [2]]), torch.tensor([10, 20, 30]))
print("broadcast_tensors shapes:", tuple(col.shape), tuple(row.shape))
print("broadcast_shapes:", torch.broadcast_shapes((4, 1, 3), (5, 1), (1,)))  # no tensors needed

gy, gx = torch.meshgrid(torch.tensor([0, 1]), torch.tensor([5, 6, 7]), indexing="ij")
print(f"meshgrid ij:\n{gy}\n{gx}")
_, gx_xy = torch.meshgrid(torch.tensor([0, 1]), torch.tensor([5, 6, 7]), indexing="xy")
print("meshgrid xy shape:", tuple(gx_xy.shape))  # the first two dimensions swapped
print("cartesian_prod:",
      torch.cartesian_prod(torch.tensor([0, 1]), torch.tensor([5, 6])).tolist())
c = torch.tensor([1, 2, 3])
print("combinations:", torch.combinations(c).tolist())  # r=2, each pair once
print("with_replacement:", torch.combinations(c, r=2, with_replacement=True).tolist())
