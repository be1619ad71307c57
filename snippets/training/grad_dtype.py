"""Tensor.grad_dtype: the dtype autograd casts a leaf's incoming gradient to (None: any).
ctx.set_output_grad_dtype: the dtype a custom Function's backward receives each gradient in.

Run: python grad_dtype.py
"""
import torch

w = torch.ones(3, dtype=torch.bfloat16, requires_grad=True)
print("default:", w.grad_dtype)  # the tensor's own dtype
w.grad_dtype = torch.float32  # keep this leaf's gradient in float32
(w * 3).sum().backward()
print("grad:", w.grad, w.grad.dtype)

g64 = torch.tensor([1.0, 2.0], dtype=torch.float64)
u = torch.ones(2, requires_grad=True)
u.backward(g64)  # default grad_dtype: cast to the leaf's dtype
print("default casts:", u.grad.dtype)
v = torch.ones(2, requires_grad=True)
v.grad_dtype = None  # accept a gradient of any dtype as it comes
print("None allows any:", v.grad_dtype)
v.backward(g64)
print("grad:", v.grad, v.grad.dtype)

y = w * 2  # not a leaf: readable, settable only on leaves
print("non-leaf reads:", y.grad_dtype)


class ToBfloat16(torch.autograd.Function):
    @staticmethod
    def forward(x, declared):
        return x.to(torch.bfloat16)

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, declared = inputs
        ctx.set_output_grad_dtype(declared)  # one per output: what backward receives

    @staticmethod
    def backward(ctx, grad):
        print("  backward receives:", grad.dtype)
        return grad.float(), None


x = torch.ones(2, requires_grad=True)
for declared in (torch.bfloat16, torch.float32):  # bfloat16: the output's own, the default
    out = ToBfloat16.apply(x, declared)
    print(f"set_output_grad_dtype({declared}): out.grad_dtype", out.grad_dtype)
    out.float().sum().backward()
