"""What a module holds: parameters (nn.Parameter), buffers (register_buffer) and submodules,
and how to list them and find one by its dotted name.

Run: python module_parameters.py
"""
import torch
from torch import nn


class Normalize(nn.Module):
    def __init__(self, size):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(size))  # trained: in parameters()
        self.register_buffer("mean", torch.zeros(size))  # not trained, saved
        self.register_buffer("cache", torch.zeros(size), persistent=False)  # not saved
        self.offset = torch.zeros(size)  # a plain attribute: none of these

    def forward(self, x):
        return (x - self.mean) * self.scale + self.offset


model = nn.Sequential(nn.Linear(3, 3), Normalize(3), nn.BatchNorm1d(3))
print("parameters:", [name for name, _ in model.named_parameters()])
print("buffers:", [name for name, _ in model.named_buffers()])
print("state_dict:", list(model.state_dict()))  # no "1.cache", no "1.offset"
print("counts:", len(list(model.parameters())), len(list(model.buffers())))
# recurse=False: only the module's own, here none (the Sequential has none)
print("recurse=False:", list(model.parameters(recurse=False)))

# .to() converts parameters and buffers, persistent or not (a device
# works like the dtype here), but not a plain tensor attribute
model.to(torch.float64)
norm = model[1]
print("after to(float64):", norm.scale.dtype, norm.mean.dtype, norm.cache.dtype,
      norm.offset.dtype)

# children(): direct submodules; modules(): the whole tree, the root first
print("children:", [type(m).__name__ for m in model.children()])
print("modules:", [type(m).__name__ for m in model.modules()])
print("named_modules:", [name for name, _ in model.named_modules()])

# Dotted names, as in named_parameters() and state_dict()
print(model.get_submodule("1") is norm, model.get_parameter("1.scale").shape,
      model.get_buffer("2.running_mean").dtype)
try:
    model.get_parameter("1.mean")
except AttributeError as error:
    print(f"AttributeError: {error}")
