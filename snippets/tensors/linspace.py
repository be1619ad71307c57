"""torch.linspace: `steps` points from start to end, both ends included.

Run: python linspace.py
"""
import torch

# The spacing is (end - start) / (steps - 1): here (10 - 3) / 4 = 1.75.
print(torch.linspace(3, 10, steps=5))
print(torch.linspace(-10, 10, steps=5))
print(torch.linspace(start=-10, end=10, steps=1))  # one point: just `start`
print(torch.linspace(0, 1, steps=3, dtype=torch.float64))
