"""torch.heaviside: the step function; you choose the value at zero.

Run: python heaviside.py
"""
import numpy as np
import torch

x = torch.tensor([-1.5, 0.0, -0.0, 2.0, float("nan")])
print(torch.heaviside(x, torch.tensor(0.5)))  # 0 below zero, 1 above, 0.5 at zero
print(torch.heaviside(x, torch.tensor([7.0, 8.0, 9.0, 10.0, 11.0])))  # per element at zero
print("NumPy:", np.heaviside(x.numpy(), 0.5))  # NaN stays NaN there

try:  # values must be a tensor, not a Python number
    torch.heaviside(x, 0.5)
except TypeError as error:
    print(f"TypeError: {error}")
try:  # and of the same dtype as input
    torch.heaviside(torch.tensor([-1, 0, 3]), torch.tensor(0.5))
except RuntimeError as error:
    print(f"RuntimeError: {error}")
print(torch.heaviside(torch.tensor([-1, 0, 3]), torch.tensor(1)))
