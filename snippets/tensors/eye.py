"""torch.eye: a 2-D tensor with ones on the diagonal.

Run: python eye.py
"""
import torch

print(torch.eye(3))
print(torch.eye(2, 4))  # n rows, m columns
print(torch.eye(2, dtype=torch.int64))
print(torch.eye(3)[[2, 0]])  # rows of eye: one-hot vectors for classes 2, 0
