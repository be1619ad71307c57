"""A lazy module of your own: LazyModuleMixin and UninitializedParameter, the machinery behind
LazyLinear and the other Lazy* layers; the dry run, dtype before it, and loading a checkpoint.

Run: python module_lazy.py
"""
import torch
from torch import nn
from torch.nn.modules.lazy import LazyModuleMixin


class LazyScale(LazyModuleMixin, nn.Module):  # scales each feature by a learnt factor
    cls_to_become = None  # stay a LazyScale after initialization (LazyLinear becomes Linear)

    def __init__(self):
        super().__init__()
        self.scale = nn.UninitializedParameter()  # a parameter without a shape yet

    def initialize_parameters(self, x):  # runs once, before the first forward, with its inputs
        if self.has_uninitialized_params():
            with torch.no_grad():
                self.scale.materialize((x.shape[-1],))  # give it a shape: now a Parameter
                self.scale.fill_(1.0)

    def forward(self, x):
        return x * self.scale


model = nn.Sequential(LazyScale(), nn.LazyLinear(2))
print("before:", [type(p).__name__ for p in model.parameters()])
print("has_uninitialized_params:", model[0].has_uninitialized_params())
model.to(torch.float64)  # dtype and device first: the dry run creates the tensors
out = model(torch.ones(4, 3, dtype=torch.float64))  # the dry run: the shapes come from here
print("after:", [(type(p).__name__, tuple(p.shape), p.dtype) for p in model.parameters()])
print("has_uninitialized_params:", model[0].has_uninitialized_params())
print(model)  # LazyLinear became Linear (its cls_to_become); LazyScale stayed
try:
    model(torch.ones(4, 5, dtype=torch.float64))  # the shape is fixed now
except RuntimeError as error:
    print(f"RuntimeError: {error}")

fresh = nn.Sequential(LazyScale(), nn.LazyLinear(2))
print("fresh state_dict:", {k: type(v).__name__ for k, v in fresh.state_dict().items()})
fresh.load_state_dict(model.state_dict())  # a checkpoint initializes it: no dry run needed
print("loaded:", [(tuple(p.shape), p.dtype) for p in fresh.parameters()])  # its own dtype
print(fresh[1])  # still a LazyLinear, in_features=0, until its first call
fresh(torch.ones(1, 3))
print(fresh[1], torch.allclose(fresh[1].weight.double(), model[1].weight))
