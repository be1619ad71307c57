"""torch.logspace: `steps` points from base**start to base**end.

Run: python logspace.py
"""
import torch

print(torch.logspace(0, 3, steps=4))          # 10**0 ... 10**3
print(torch.logspace(0, 3, steps=4, base=2))  # 2**0 ... 2**3
print(torch.logspace(-2, 0, steps=3))  # 0.01, 0.1, 1: a learning-rate sweep
print(10 ** torch.linspace(0, 3, steps=4))  # the same as the first line
