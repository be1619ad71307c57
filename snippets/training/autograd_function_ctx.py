"""ctx in a custom torch.autograd.Function beyond save_for_backward: needs_input_grad,
mark_non_differentiable, set_materialize_grads, mark_dirty; vmap support with
generate_vmap_rule or a vmap staticmethod.

Run: python autograd_function_ctx.py
"""
import torch
from torch.autograd import Function


class Scale(Function):
    @staticmethod
    def forward(x, k):
        return x * k

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, k = inputs
        ctx.save_for_backward(x, k)

    @staticmethod
    def backward(ctx, grad):
        x, k = ctx.saved_tensors
        print("  needs_input_grad:", ctx.needs_input_grad)
        grad_x = grad * k if ctx.needs_input_grad[0] else None  # skip work nobody asked for
        grad_k = (grad * x).sum() if ctx.needs_input_grad[1] else None
        return grad_x, grad_k


x = torch.tensor([1.0, 2.0], requires_grad=True)
k = torch.tensor(3.0)  # no gradient wanted for k
print("Scale backward:")
Scale.apply(x, k).sum().backward()
print("x.grad:", x.grad)


class MinMax(Function):
    @staticmethod
    def forward(x, materialize):
        return x.min(), x.max(), x.argmax()

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, materialize = inputs
        _, _, argmax = output
        ctx.mark_non_differentiable(argmax)  # an index never gets a gradient
        ctx.save_for_backward(x, x.argmin(), argmax)
        ctx.set_materialize_grads(materialize)  # False: an unused output's gradient is None

    @staticmethod
    def backward(ctx, grad_min, grad_max, grad_argmax):
        print(f"  grad_min={grad_min!r} grad_max={grad_max!r} grad_argmax={grad_argmax!r}")
        x, argmin, argmax = ctx.saved_tensors
        grad = torch.zeros_like(x)
        if grad_min is not None:
            grad[argmin] += grad_min
        if grad_max is not None:
            grad[argmax] += grad_max
        return grad, None  # one per input: materialize is not a tensor


for materialize in (True, False):
    x = torch.tensor([3.0, 1.0, 2.0], requires_grad=True)
    lo, hi, where = MinMax.apply(x, materialize)
    print(f"set_materialize_grads({materialize}): argmax requires_grad:", where.requires_grad)
    hi.backward()  # lo is not used
    print("  x.grad:", x.grad)


class AddOne_(Function):
    @staticmethod
    def forward(ctx, x):  # the older form: ctx first, no setup_context
        x.add_(1)  # changes its input in place...
        ctx.mark_dirty(x)  # ...so it must say so and return that tensor
        return x

    @staticmethod
    def backward(ctx, grad):
        return grad


a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a.clone()  # a leaf that requires grad cannot be changed in place
out = AddOne_.apply(b)
print("mark_dirty: same tensor:", out is b, "b:", b)
out.sum().backward()
print("  a.grad:", a.grad)


class Square(Function):
    generate_vmap_rule = True  # torch.func.vmap batches forward as written

    @staticmethod
    def forward(x):
        return x ** 2

    @staticmethod
    def setup_context(ctx, inputs, output):
        (x,) = inputs
        ctx.save_for_backward(x)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return 2 * x * grad


class Double(Function):
    @staticmethod
    def forward(x):
        return x * 2

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass

    @staticmethod
    def backward(ctx, grad):
        return grad * 2

    @staticmethod
    def vmap(info, in_dims, x):  # a rule of your own: return (output, its batch dim)
        print(f"  Double.vmap: batch_size={info.batch_size} in_dims={in_dims}")
        return x * 2, in_dims[0]  # elementwise: the batch dim stays where it was


batch = torch.arange(6.0).reshape(2, 3)
print("generate_vmap_rule:", Square.generate_vmap_rule, Double.generate_vmap_rule)
print("vmap(Square.apply):", torch.func.vmap(Square.apply)(batch))
print("vmap of grad:", torch.func.vmap(torch.func.grad(lambda t: Square.apply(t).sum()))(batch))
print("vmap(Double.apply, in_dims=1):")
print(torch.func.vmap(Double.apply, in_dims=1)(batch))
try:
    torch.func.vmap(Scale.apply, in_dims=(0, None))(batch, k)
except RuntimeError as error:
    print(f"{type(error).__name__}: {str(error).split('. ')[0]}.")
