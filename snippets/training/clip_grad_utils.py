"""torch.nn.utils helpers: clip_grad_norm_ (returns the total norm; error_if_nonfinite,
foreach), clip_grad_value_, parameters_to_vector and vector_to_parameters, skip_init and
factory_kwargs, is_lazy, BatchNorm fusion and the channels_last weight format.

Run: python clip_grad_utils.py
"""
import torch
from torch import nn
from torch.nn.utils import (clip_grad_norm_, clip_grad_value_,
                            convert_conv2d_weight_memory_format,
                            fuse_conv_bn_eval, fuse_conv_bn_weights, fuse_linear_bn_eval,
                            fuse_linear_bn_weights, parameters_to_vector, skip_init,
                            vector_to_parameters)

torch.manual_seed(0)
a = nn.Parameter(torch.zeros(2))
b = nn.Parameter(torch.zeros(1))
a.grad, b.grad = torch.tensor([3.0, 0.0]), torch.tensor([4.0])

# clip_grad_norm_: one norm over all gradients together; returns it (before clipping)
total = clip_grad_norm_([a, b], max_norm=1.0)
print("total norm:", round(total.item(), 4))
print("clipped:", [round(v, 4) for v in a.grad.tolist() + b.grad.tolist()])  # scaled by 1/5
# Below max_norm nothing changes; the norm is still returned (worth logging)
print("again:", round(clip_grad_norm_([a, b], max_norm=10.0, foreach=True).item(), 4))

# A NaN/inf gradient makes the norm non-finite: error_if_nonfinite=True raises instead of scaling
a.grad = torch.tensor([float("inf"), 0.0])
try:
    clip_grad_norm_([a, b], max_norm=1.0, error_if_nonfinite=True)
except RuntimeError:
    print("non-finite norm: RuntimeError")

# clip_grad_value_: clamps each element to [-clip_value, clip_value]; returns None
a.grad = torch.tensor([-3.0, 0.25])
clip_grad_value_(a, clip_value=0.5)
print("value-clipped:", a.grad.tolist())

# parameters_to_vector / vector_to_parameters: all parameters as one flat tensor and back
model = nn.Linear(3, 2)
vec = parameters_to_vector(model.parameters())
print("vector:", tuple(vec.shape))  # 3*2 weights + 2 biases
flat = torch.arange(8.0)
vector_to_parameters(flat, model.parameters())  # in parameters() order
print("weight:", model.weight.tolist(), "bias:", model.bias.tolist())
flat[7] = -1.0  # the parameters are now views of the vector
print("bias after changing the vector:", model.bias.tolist())

# skip_init: build a module without running its initialization (you set the values)
lin = skip_init(nn.Linear, 4, 3)
nn.init.zeros_(lin.weight)
print("skip_init:", tuple(lin.weight.shape), lin.weight.abs().sum().item())


# skip_init needs a class that takes device=...; nn.factory_kwargs collects device and dtype
class Scale(nn.Module):
    def __init__(self, n, device=None, dtype=None):
        super().__init__()
        kwargs = nn.factory_kwargs({"device": device, "dtype": dtype})  # checks the keys too
        self.weight = nn.Parameter(torch.ones(n, **kwargs))


custom = skip_init(Scale, 3, dtype=torch.float64)
print("custom:", custom.weight.dtype, custom.weight.device)

# is_lazy: a lazy module's parameter before its first forward
lazy = nn.LazyLinear(2)
print("is_lazy before:", nn.parameter.is_lazy(lazy.weight), end="; ")
lazy(torch.ones(1, 5))
print("after:", nn.parameter.is_lazy(lazy.weight), tuple(lazy.weight.shape))

# Fusing an eval-mode BatchNorm into the layer before it: same output, one layer less
conv, bn = nn.Conv2d(2, 3, 3), nn.BatchNorm2d(3)
bn.running_mean.uniform_(-1, 1)
bn.running_var.uniform_(0.5, 2)
conv.eval()
bn.eval()
img = torch.randn(1, 2, 5, 5)
fused = fuse_conv_bn_eval(conv, bn)
print("fused conv:", type(fused).__name__, torch.allclose(fused(img), bn(conv(img)), atol=1e-5))
w, bias = fuse_conv_bn_weights(conv.weight, conv.bias, bn.running_mean, bn.running_var, bn.eps,
                               bn.weight, bn.bias)
print("same weights:", torch.allclose(w, fused.weight), torch.allclose(bias, fused.bias))
linear, bn1 = nn.Linear(4, 3).eval(), nn.BatchNorm1d(3).eval()
bn1.running_mean.uniform_(-1, 1)
fused_lin = fuse_linear_bn_eval(linear, bn1)
rows = torch.randn(2, 4)
print("fused linear:", torch.allclose(fused_lin(rows), bn1(linear(rows)), atol=1e-5))
lw, lb = fuse_linear_bn_weights(linear.weight, linear.bias, bn1.running_mean, bn1.running_var,
                                bn1.eps,
                                bn1.weight, bn1.bias)
print("same linear weights:", torch.allclose(lw, fused_lin.weight),
      torch.allclose(lb, fused_lin.bias))

# The conv weights in channels_last order, for a model run with channels_last inputs
net = nn.Sequential(nn.Conv2d(3, 4, 3), nn.ReLU())
net = convert_conv2d_weight_memory_format(net, torch.channels_last)
print("channels_last weight:", net[0].weight.is_contiguous(memory_format=torch.channels_last))
