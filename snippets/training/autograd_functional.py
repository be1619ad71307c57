"""torch.autograd.functional: jacobian, hessian, vjp, jvp, hvp and vhp of small functions.

Run: python autograd_functional.py
"""
import torch
from torch.autograd.functional import hessian, hvp, jacobian, jvp, vhp, vjp


def f(x):  # from 2 values to 2 values
    return x ** 2 * x.sum()


def energy(x):  # from 2 values to a scalar
    return (x ** 3).sum() + x[0] * x[1]


x = torch.tensor([1.0, 2.0])  # no requires_grad needed
v = torch.tensor([1.0, 0.0])

# J[i, j] = d f_i / d x_j: a row per output, a column per input
print("jacobian:", jacobian(f, x))
# Products with J, without building it: (f(x), v^T J) and (f(x), J v)
print("vjp:", vjp(f, x, v))
print("jvp:", jvp(f, x, v))

print("hessian:", hessian(energy, x))
# (energy(x), H v) and (energy(x), v^T H): equal, since H is symmetric
print("hvp:", hvp(energy, x, v))
print("vhp:", vhp(energy, x, v))
# The results are constants unless create_graph=True
print("requires_grad:", jacobian(f, x).requires_grad,
      jacobian(f, x, create_graph=True).requires_grad)
