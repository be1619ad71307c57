"""torch.inf, torch.nan, torch.pi and torch.e: plain Python floats, math's values; -inf in a mask
before softmax, NaN in a mean.

Run: python constants.py
"""
import math

import torch

print("types:", type(torch.inf).__name__, type(torch.pi).__name__)  # floats, not tensors
print("same as math:", torch.inf == math.inf, torch.pi == math.pi, torch.e == math.e)
print("nan == nan:", torch.nan == torch.nan, "isnan:", math.isnan(torch.nan))

scores = torch.tensor([[2.0, 1.0, 0.5], [0.3, 0.2, 0.1]])
keep = torch.tensor([[True, True, False], [True, False, False]])
masked = scores.masked_fill(~keep, -torch.inf)  # softmax gives exactly 0 where -inf
print("masked:", masked)
print("softmax:", torch.softmax(masked, dim=-1))
print("all -inf:", torch.softmax(torch.full((3,), -torch.inf), dim=0))  # 0 / 0: nan

angles = torch.tensor([0.0, 0.5, 1.0, 1.5]) * torch.pi
print("cos(k * pi):", torch.cos(angles).round(decimals=4) + 0.0)  # + 0.0 turns -0.0 into 0.0
print("log(e):", torch.log(torch.tensor(torch.e)))

x = torch.tensor([1.0, torch.nan, 3.0])
print("mean:", x.mean(), "nanmean:", x.nanmean())  # one NaN makes the mean NaN
