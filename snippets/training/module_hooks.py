"""Module hooks that change data: a forward pre-hook replaces the input, a forward hook the
output, a full backward pre-hook the output's gradient.

Run: python module_hooks.py
"""
import torch
from torch import nn


class Scale(nn.Module):
    def forward(self, x, factor=1.0):
        return x * factor


def double_input(module, args):  # args: the positional arguments of forward
    return (args[0] * 2,)  # a tuple (or one value) replaces them


def clamp_output(module, args, output):
    return output.clamp(max=3.0)  # a return value replaces the output


def log_kwargs(module, args, kwargs):  # with_kwargs=True: keyword arguments too
    print("pre-hook sees:", args, kwargs)


x = torch.tensor([1.0, 2.0], requires_grad=True)
scale = Scale()
handles = [scale.register_forward_pre_hook(double_input),
           scale.register_forward_hook(clamp_output),
           # prepend=True: runs before the hooks already there, so it sees x
           scale.register_forward_pre_hook(log_kwargs, with_kwargs=True, prepend=True)]
print("output:", scale(x, factor=1.0))  # (x * 2) * 1.0, clamped at 3
print("forward() skips them:", scale.forward(x))  # call the module instead
for handle in handles:
    handle.remove()
print("hooks removed:", scale(x, factor=1.0))


def scale_grad(module, grad_output):  # runs before the module's own backward
    return (grad_output[0] * 10,)


torch.manual_seed(0)
layer = nn.Linear(2, 1)
handle = layer.register_full_backward_pre_hook(scale_grad)
layer(x).sum().backward()
print("x.grad is 10 x weight:", torch.allclose(x.grad, 10 * layer.weight.detach()[0]))
handle.remove()
