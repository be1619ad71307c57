"""Indexing: ints and slices give views; index tensors and masks, copies.

Run: python indexing.py
"""
import torch

x = torch.arange(12).view(3, 4)
print(x)
print(x[1])          # row 1 (the first dim disappears)
print(x[:, 1])       # column 1
print(x[0:2, ::2])   # rows 0-1, every second column
print(x[..., -1])    # last column; ... stands for all leading dims
print(x[x > 8])      # boolean mask: the selected elements, 1-D
print(x[[0, 2], [1, 3]])  # index lists pair up: x[0, 1] and x[2, 3]

row = x[0]           # a view: writing to it writes to x
row[0] = 100
print(x[0])
picked = x[[0]]      # advanced indexing: a copy
picked[0, 1] = -1
print(x[0])

try:
    x[::-1]          # no negative steps
except ValueError as error:
    print(f"ValueError: {error}")
print(torch.flip(x, dims=[0]))  # reverse along a dim instead (a copy)
