"""torch.amp.custom_fwd and custom_bwd: a custom autograd.Function under autocast; and
torch.amp.is_autocast_available.

Run: python amp_custom_fwd.py
"""
import torch
from torch.amp import custom_bwd, custom_fwd

# Whether autocast supports a device type, not whether such a device is present
print("is_autocast_available:",
      {d: torch.amp.is_autocast_available(d) for d in ("cpu", "cuda", "meta")})


class MatMul(torch.autograd.Function):  # no decorators
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a @ b

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return grad @ b.T, a.T @ grad


class AmpMatMul(torch.autograd.Function):
    @staticmethod
    @custom_fwd(device_type="cpu")
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a @ b

    @staticmethod
    @custom_bwd(device_type="cpu")  # backward runs in the forward's autocast state
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        print("  backward: autocast on:", torch.is_autocast_enabled("cpu"))
        return grad @ b.T, a.T @ grad


class Float32MatMul(torch.autograd.Function):
    @staticmethod
    @custom_fwd(device_type="cpu", cast_inputs=torch.float32)  # float32 inputs, autocast off
    def forward(ctx, a, b):
        print("  forward: inputs", a.dtype, "| autocast on:", torch.is_autocast_enabled("cpu"))
        ctx.save_for_backward(a, b)
        return a @ b

    @staticmethod
    @custom_bwd(device_type="cpu")
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return grad @ b.T, a.T @ grad


torch.manual_seed(0)
a = torch.randn(2, 3, requires_grad=True)
b = torch.randn(3, 2, requires_grad=True)
for function in (MatMul, AmpMatMul, Float32MatMul):
    print(function.__name__)
    with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
        out = function.apply(a.bfloat16(), b)  # a 16-bit input, as from a layer before
    print("  output:", out.dtype)
    try:
        out.float().sum().backward()  # outside autocast
        print("  gradients:", a.grad.dtype, b.grad.dtype)
    except RuntimeError as error:
        print(f"  RuntimeError: {error}")
    a.grad = b.grad = None
