"""A custom torch.autograd.Function (forward, setup_context, backward), checked with gradcheck
and gradgradcheck on float64 inputs.

Run: python autograd_function.py
"""
import warnings

import torch
from torch.autograd import Function


class Cube(Function):
    @staticmethod
    def forward(x):
        return x ** 3

    @staticmethod
    def setup_context(ctx, inputs, output):
        (x,) = inputs
        ctx.save_for_backward(x)  # tensors go through save_for_backward, not ctx.x = x

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output * 3 * x ** 2  # one gradient per input of forward


class WrongCube(Cube):
    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output * 3 * x  # a bug: x instead of x ** 2


x = torch.tensor([1.0, 2.0], requires_grad=True)
y = Cube.apply(x)  # call apply, never forward
y.sum().backward()
print("y:", y.detach(), "grad_fn:", type(y.grad_fn).__name__, "x.grad:", x.grad)

# gradcheck compares backward with finite differences; it needs float64
torch.manual_seed(0)
x64 = torch.randn(3, dtype=torch.float64, requires_grad=True)
print("gradcheck:", torch.autograd.gradcheck(Cube.apply, (x64,)))
print("gradgradcheck:", torch.autograd.gradgradcheck(Cube.apply, (x64,)))
try:
    torch.autograd.gradcheck(WrongCube.apply, (x64,))
except RuntimeError as error:
    print(f"{type(error).__name__}: {str(error).splitlines()[0]}")

# In float32 it warns, and even the correct backward fails the check
x32 = torch.randn(3, requires_grad=True)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    passed = torch.autograd.gradcheck(Cube.apply, (x32,), raise_exception=False)
sentence = str(caught[0].message).split(". ")[0]
print(f"{caught[0].category.__name__}: {sentence}.")
print("float32 gradcheck:", passed)
