"""torch.chunk: a number of pieces; torch.split: pieces of given sizes.

Run: python chunk_split.py
"""
import torch

x = torch.arange(10)
print(torch.chunk(x, 3))  # ceil(10 / 3) = 4 per chunk, the last is smaller
print(torch.chunk(x, 5))
print(torch.chunk(torch.arange(6), 4))  # asked for 4, got 3 (2 each)
print(torch.split(x, 4))  # pieces of 4, the remainder last
print(torch.split(x, [2, 3, 5]))  # sizes must add up to the dim's size

m = torch.arange(12).view(2, 6)
left, right = m.split(3, dim=1)  # along columns; each piece is a view
print(left)
print(right)
try:
    torch.split(x, [2, 3])
except RuntimeError as error:
    print(f"RuntimeError: {error}")
