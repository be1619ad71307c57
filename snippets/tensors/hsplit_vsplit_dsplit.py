"""hsplit / vsplit / dsplit: tensor_split along dim 1 / 0 / 2, but an int must divide evenly.

Run: python hsplit_vsplit_dsplit.py
"""
import torch

m = torch.arange(12).view(3, 4)
print("hsplit(m, 2):", [tuple(p.shape) for p in torch.hsplit(m, 2)])  # along the columns
print("hsplit(m, [1, 3]):", [tuple(p.shape) for p in torch.hsplit(m, [1, 3])])
print(f"vsplit(m, [1])[0]:\n{torch.vsplit(m, [1])[0]}")  # along the rows: cut after row 0

try:
    torch.vsplit(m, 2)  # 3 rows do not split into 2 equal parts
except RuntimeError as error:
    print(f"RuntimeError: {error}")
print("tensor_split(m, 2) works:", [tuple(p.shape) for p in torch.tensor_split(m, 2)])

v = torch.arange(6)
print("hsplit of 1-D splits dim 0:", torch.hsplit(v, 3))
try:
    torch.vsplit(v, 3)  # vsplit needs 2 dims, dsplit 3
except RuntimeError as error:
    print(f"RuntimeError: {error}")

image = torch.zeros(2, 2, 3)  # H, W, C: dsplit takes the channels apart
print("dsplit(image, 3):", [tuple(p.shape) for p in torch.dsplit(image, 3)])
