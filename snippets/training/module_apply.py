"""Module.apply(fn) calls fn on every submodule and then on the module itself: the usual way
to run a custom initialization with torch.nn.init.

Run: python module_apply.py
"""
import math

import torch
from torch import nn

visited = []


def init_weights(module):
    visited.append(type(module).__name__)
    if isinstance(module, nn.Linear):  # pick the layers by type
        nn.init.xavier_uniform_(module.weight)  # in place, without recording
        nn.init.zeros_(module.bias)


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 2), nn.ReLU(), nn.Linear(2, 1))
print(model.apply(init_weights) is model)  # returns the module itself
print("order:", visited)  # children first, the root last
print(model[0].weight)
print("bias:", model[0].bias)

# xavier_uniform_ draws from U(-a, a), a = sqrt(6 / (fan_in + fan_out))
bound = math.sqrt(6 / (3 + 2))
print(f"bound {bound:.4f}:", bool(model[0].weight.abs().max() <= bound))

# The same seed gives the same weights
torch.manual_seed(0)
again = nn.Sequential(nn.Linear(3, 2), nn.ReLU(), nn.Linear(2, 1)).apply(init_weights)
print("reproducible:", torch.equal(again[0].weight, model[0].weight))
