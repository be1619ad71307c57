"""torch.tensor_split: exactly n pieces (sizes differ by at most 1), or cut at given indices.

Run: python tensor_split.py
"""
import torch

x = torch.arange(7)
print("tensor_split(x, 3):", torch.tensor_split(x, 3))  # 3 pieces: 3, 2, 2
print("split(x, 3):       ", torch.split(x, 3))  # pieces of size 3
print("chunk(x, 3):       ", torch.chunk(x, 3))  # at most 3 pieces of ceil(7 / 3)

six = torch.arange(6)
print("tensor_split(six, 4):", torch.tensor_split(six, 4))  # always 4 pieces
print("chunk(six, 4):       ", torch.chunk(six, 4))  # only 3

print("indices [2, 5]:", torch.tensor_split(x, [2, 5]))  # x[:2], x[2:5], x[5:]
print("split(x, [2, 3, 2]):", torch.split(x, [2, 3, 2]))  # split's list holds sizes
print("indices [2, 10]:", torch.tensor_split(x, [2, 10]))  # past the end: empty, no error
print("more pieces than elements:", torch.tensor_split(torch.arange(2), 3))

m = torch.arange(8).view(2, 4)
left, right = torch.tensor_split(m, 2, dim=1)  # views of m
left[0, 0] = 100
print("m after writing to a piece:", m[0])
