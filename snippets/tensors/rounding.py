"""Rounding: round (half to even, decimals), floor, ceil, trunc (fix), frac.

Run: python rounding.py
"""
import torch

x = torch.tensor([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 2.7])
print("x:    ", x)
print("round:", torch.round(x))  # halves go to the even neighbour
print("floor:", torch.floor(x))  # down
print("ceil: ", torch.ceil(x))  # up
print("trunc:", torch.trunc(x))  # toward zero
print("fix:  ", torch.fix(x))  # another name for trunc
print("frac: ", torch.frac(x))  # x - trunc(x): keeps the sign
print("round, decimals=1:", torch.round(torch.tensor([1.25, 1.35, 12.5]), decimals=1))
print("round, decimals=-1:", torch.round(torch.tensor([14.0, 15.0, 25.0]), decimals=-1))
print("Python round(2.5):", round(2.5), "int() truncates:", int(torch.tensor(-2.7)))
step = torch.nextafter(torch.tensor(1.0), torch.tensor(2.0)) - 1  # next float32 after 1.0
print("nextafter(1, 2) - 1 == eps:", step.item() == torch.finfo(torch.float32).eps)
f = torch.tensor([1.7, -1.7])
print("method forms:", f.round(), f.floor(), f.ceil(), f.trunc(), f.frac())
f.floor_()
print("floor_ in place:", f)
