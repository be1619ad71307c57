"""torch.arange: evenly spaced values in [start, end), the end is excluded.

Run: python arange.py
"""
import torch

print(torch.arange(5))            # start defaults to 0, step to 1
print(torch.arange(1, 4))         # 4 itself is not included
print(torch.arange(1, 2.5, 0.5))  # a float step gives a float tensor
print(torch.arange(1, 2.5, 0.5).dtype)
print(torch.arange(10, 0, -3))    # a negative step counts down
