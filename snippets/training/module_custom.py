"""Writing a module: super().__init__() first; attributes register submodules and parameters,
add_module/register_module take a name computed at run time, a plain list registers nothing;
extra_repr() adds to print(model).

Run: python module_custom.py
"""
import torch
from torch import nn


class Broken(nn.Module):
    def __init__(self):
        self.layer = nn.Linear(2, 2)  # before super().__init__()


try:
    Broken()
except AttributeError as error:
    print(f"AttributeError: {error}")


class Stack(nn.Module):
    def __init__(self, width, depth, bias=True):
        super().__init__()
        self.width = width
        for i in range(depth):  # names computed at run time
            self.add_module(f"block{i}", nn.Linear(width, width, bias=False))
        self.register_module("out", nn.Linear(width, 1))  # the same as add_module
        # An optional parameter: None keeps the name, with no tensor
        self.register_parameter("shift", nn.Parameter(torch.zeros(1)) if bias else None)
        self.extras = [nn.Linear(width, width)]  # a plain list: not registered
        self.more = nn.ModuleList([nn.Linear(width, width)])  # registered

    def extra_repr(self):  # shown in the module's own line of print()
        return f"width={self.width}"

    def forward(self, x):
        for name, child in self.named_children():
            if name.startswith("block"):
                x = torch.relu(child(x))
        return self.out(x) + (self.shift if self.shift is not None else 0)


model = Stack(width=3, depth=2)
print(model)  # self.extras is missing, and so are its parameters
print("parameters:", [name for name, _ in model.named_parameters()])
print("no shift:", [name for name, _ in Stack(3, 1, bias=False).named_parameters()])
print("output:", tuple(model(torch.ones(4, 3)).shape))

# set_submodule replaces a submodule by its dotted name (here: a new head)
model.set_submodule("out", nn.Linear(3, 5))
print("new head:", model.out, tuple(model(torch.ones(4, 3)).shape))
