"""nn.ModuleList and nn.ModuleDict: a list or dict of submodules that the module registers (a
plain Python list registers nothing); indexing, append/extend/insert; ModuleDict keys and order.

Run: python container_module_list.py
"""
import torch
from torch import nn


def count(module):
    return sum(p.numel() for p in module.parameters())


class PlainList(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = [nn.Linear(4, 4) for _ in range(3)]  # a plain list: not registered


class Stack(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList(nn.Linear(4, 4) for _ in range(3))

    def forward(self, x):
        for layer in self.layers:  # the loop is written by hand: ModuleList has no forward
            x = torch.relu(layer(x))
        return x


torch.manual_seed(0)
print("plain list parameters:", count(PlainList()))
stack = Stack()
print("ModuleList parameters:", count(stack))
print("stack keys:", list(stack.state_dict())[:4], "...")
print("output:", tuple(stack(torch.ones(2, 4)).shape))

# Indexing gives a module, a slice a ModuleList; append/extend/insert as on a list
layers = stack.layers
layers.append(nn.Linear(4, 2))
layers.insert(0, nn.Identity())
layers.extend([nn.ReLU()])
print("layers:", [type(m).__name__ for m in layers])
print("layers[1:3]:", type(layers[1:3]).__name__, len(layers[1:3]))
print("after append:", count(stack))  # the new Linear(4, 2) is registered at once

try:
    layers(torch.ones(2, 4))
except NotImplementedError as error:
    print(f"NotImplementedError: {error}")

# ModuleDict: string keys, kept in insertion order; iterating yields the keys
heads = nn.ModuleDict({"zeta": nn.Linear(4, 1), "alpha": nn.Linear(4, 3)})
heads["beta"] = nn.Linear(4, 2)
heads.update([("gamma", nn.Identity())])  # a dict or a list of pairs
print("heads keys:", list(heads))
print("items:", [(name, type(m).__name__) for name, m in heads.items()])
print("state_dict:", list(heads.state_dict()))
print("beta output:", tuple(heads["beta"](torch.ones(2, 4)).shape))
print("pop:", type(heads.pop("gamma")).__name__, "left:", len(heads), "zeta" in heads)

for key in ["a.b", "train"]:  # a dot, or a name nn.Module already has
    try:
        heads[key] = nn.Identity()
    except KeyError as error:
        print(f"{key}: KeyError: {error}")
