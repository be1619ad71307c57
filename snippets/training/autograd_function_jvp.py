"""Forward-mode AD for a custom torch.autograd.Function: save_for_forward and a jvp
staticmethod, used by torch.autograd.forward_ad and torch.func.jvp.

Run: python autograd_function_jvp.py
"""
import warnings

import torch
import torch.autograd.forward_ad as fwAD
from torch.autograd import Function


class Square(Function):
    generate_vmap_rule = True  # jacfwd is vmap over jvp: it needs vmap support too

    @staticmethod
    def forward(x):
        return x ** 2

    @staticmethod
    def setup_context(ctx, inputs, output):
        (x,) = inputs
        ctx.save_for_backward(x)  # for backward (reverse mode)
        ctx.save_for_forward(x)  # for jvp (forward mode); both read ctx.saved_tensors

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return 2 * x * grad

    @staticmethod
    def jvp(ctx, tangent):  # one tangent per input in, the output's tangent out
        (x,) = ctx.saved_tensors
        return 2 * x * tangent


x = torch.tensor([1.0, 2.0, 3.0])
tangent = torch.tensor([1.0, 0.0, 1.0])
with warnings.catch_warnings(record=True) as caught:  # the first forward-mode call
    warnings.simplefilter("always")
    with fwAD.dual_level():
        out = Square.apply(fwAD.make_dual(x, tangent))
        primal, out_tangent = fwAD.unpack_dual(out)
for text in sorted({f"{w.category.__name__}: {str(w.message).split('. ')[0]}." for w in caught}):
    print("first forward-mode call:", text)  # from torch's own code (2.15), not yours
print("forward_ad: primal", primal, "tangent", out_tangent)
print("torch.func.jvp:", torch.func.jvp(Square.apply, (x,), (tangent,)))
print("torch.func.jacfwd:", torch.func.jacfwd(Square.apply)(x))


class NoJvp(Function):
    @staticmethod
    def forward(x):
        return x ** 2

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return 2 * x * grad


try:
    torch.func.jvp(NoJvp.apply, (x,), (tangent,))
except NotImplementedError as error:
    print(f"{type(error).__name__}: {str(error).splitlines()[0][:100]}")
