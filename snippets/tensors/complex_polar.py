"""torch.complex and torch.polar: a complex tensor from two real ones.

Run: python complex_polar.py
"""
import math

import torch

real = torch.tensor([1.0, 0.0])
imag = torch.tensor([2.0, -1.0])
z = torch.complex(real, imag)  # real + imag * 1j
print(z, z.dtype)  # float32 parts give complex64
print(torch.complex(real.double(), imag.double()).dtype)

try:  # integer parts are refused
    torch.complex(torch.tensor([1, 2]), torch.tensor([3, 4]))
except RuntimeError as error:
    print(f"RuntimeError: {error}")
try:  # so are parts of two different dtypes
    torch.complex(real, imag.double())
except RuntimeError as error:
    print(f"RuntimeError: {error}")

# polar: abs * (cos(angle) + sin(angle) * 1j)
p = torch.polar(torch.tensor([2.0, 1.0]), torch.tensor([0.0, math.pi / 2]))
print(p)  # cos(pi / 2) is not exactly 0 in float32
print("abs:", p.abs(), "angle:", p.angle())
one = torch.tensor([1.0], dtype=torch.float64)
print(torch.polar(one, one * math.pi / 2))  # float64: smaller, still not 0
