"""view never copies and needs compatible strides; reshape copies if needed.

Run: python view_reshape.py
"""
import torch

x = torch.arange(6)
print(x.view(2, 3))
print(x.view(3, -1))  # -1: inferred from the other sizes

t = x.view(2, 3).t()  # transposed: not contiguous any more
print(t.is_contiguous())
try:
    t.view(6)
except RuntimeError as error:
    print(f"RuntimeError: {error}")
print(t.reshape(6))            # works: copies, as no view has this order
print(t.contiguous().view(6))  # the same, spelled out

v = x.reshape(3, 2)  # on a contiguous tensor, reshape returns a view
v[0, 0] = 100
print(x)
