"""torch.randint, randint_like, randperm: random integers and permutations.

Run: python randint_randperm.py
"""
import torch

torch.manual_seed(0)
print(torch.randint(10, (2, 4)))   # [0, 10): high is excluded
print(torch.randint(3, 6, (8,)))   # [3, 6): only 3, 4 and 5
x = torch.zeros(2, 3, dtype=torch.int32)
print(torch.randint_like(x, 100))  # shape and dtype of x
print(torch.randint_like(x, 5, 8))
print(torch.randperm(6))           # 0..5 in random order, int64

data = torch.arange(10, 16)
print(data[torch.randperm(len(data))])  # shuffle a tensor along dim 0

try:
    torch.randint(10, 3)  # the size must be a tuple, even for 1-D
except TypeError as error:
    print(f"TypeError: {error}")
