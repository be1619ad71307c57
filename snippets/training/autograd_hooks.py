"""Tensor.register_hook changes a gradient on its way back; a module's forward and full
backward hooks see its activations and gradients.

Run: python autograd_hooks.py
"""
import warnings

import torch
from torch import nn

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
# The hook receives dL/dy; what it returns replaces it
handle = y.register_hook(lambda grad: grad.clamp(max=1.0))
(y * torch.tensor([0.5, 1.0, 2.0])).sum().backward()
print("x.grad with the hook:", x.grad)  # 2 * [0.5, 1, 1]; without it 2 * [0.5, 1, 2]
handle.remove()

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
saved = {}


def keep_output(module, inputs, output):
    saved["relu"] = output.detach()


def show_grads(module, grad_input, grad_output):
    shapes = [None if g is None else tuple(g.shape) for g in grad_input]
    print("grad_input:", shapes, "grad_output:", [tuple(g.shape) for g in grad_output])


model[1].register_forward_hook(keep_output)
hook = model[2].register_full_backward_hook(show_grads)
model(torch.randn(5, 3)).sum().backward()
print("saved activation:", tuple(saved["relu"].shape))
hook.remove()

# On the first layer the input does not require grad: grad_input is None, and it warns
model[0].register_full_backward_hook(show_grads)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    model(torch.randn(5, 3)).sum().backward()
sentence = str(caught[0].message).split(". ")[0]
print(f"{caught[0].category.__name__}: {sentence}.")
