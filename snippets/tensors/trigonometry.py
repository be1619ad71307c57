"""Trigonometric and hyperbolic functions, their inverses, atan2, hypot, degrees and radians.

Run: python trigonometry.py
"""
import math

import torch

torch.set_printoptions(precision=4)  # transcendental results: compare rounded values
x = torch.tensor([0.0, math.pi / 6, math.pi / 4, math.pi / 2])
print("sin:", torch.sin(x))
print("cos:", torch.cos(x[:3]))
print("cos(pi/2) == 0:", torch.cos(x[3]).item() == 0.0)  # float32 pi/2 is not exactly pi/2
print("tan:", torch.tan(x[:3]))
v = torch.tensor([-1.0, 0.0, 0.5, 1.0])
print("asin:", torch.asin(v))
print("acos:", torch.acos(v))
print("atan:", torch.atan(v))
print("asin out of [-1, 1]:", torch.asin(torch.tensor([2.0])))  # nan, no error

y = torch.tensor([1.0, 1.0, -1.0, -1.0])
xx = torch.tensor([1.0, -1.0, -1.0, 1.0])
print("atan(y / x):", torch.atan(y / xx))  # loses the quadrant
print("atan2(y, x):", torch.atan2(y, xx))  # keeps it: (-pi, pi]
print("rad2deg(atan2):", torch.rad2deg(torch.atan2(y, xx)))
print("deg2rad:", torch.deg2rad(torch.tensor([90.0, 180.0])))
# sqrt(x**2 + y**2)
print("hypot:", torch.hypot(torch.tensor([3.0, 5.0]), torch.tensor([4.0, 12.0])))
print("sinc:", torch.sinc(torch.tensor([0.0, 0.5, 1.5])))  # sin(pi x) / (pi x), 1 at 0

h = torch.tensor([-1.0, 0.0, 1.0])
print("sinh:", torch.sinh(h), "cosh:", torch.cosh(h))
print("tanh:", torch.tanh(h))
print("asinh:", torch.asinh(h), "acosh:", torch.acosh(torch.tensor([1.0, 2.0])))
print("atanh:", torch.atanh(torch.tensor([-0.5, 0.0, 1.0])))  # inf at 1
print("method forms:", h.sin(), h.cos(), h.tanh())
