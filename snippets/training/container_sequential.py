"""nn.Sequential: calls its modules in order; names them 0, 1, 2 or by an OrderedDict's keys;
an index gives a module, a slice a Sequential; append/insert/extend; the names in state_dict().

Run: python container_sequential.py
"""
from collections import OrderedDict

import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))
print(model)
print("output:", tuple(model(torch.ones(5, 4)).shape))  # each module's output feeds the next
print("keys:", list(model.state_dict()))  # the position is the name

# An OrderedDict gives the names; the positions still work
named = nn.Sequential(OrderedDict([
    ("hidden", nn.Linear(4, 3)),
    ("act", nn.ReLU()),
    ("out", nn.Linear(3, 2)),
]))
print("named keys:", list(named.state_dict()))
print("named.out is named[2]:", named.out is named[2])

# An index gives the module itself, a slice a new Sequential of the same modules
print("model[-1]:", model[-1])
head = model[1:]
print("model[1:]:", type(head).__name__, len(head), "shares modules:", head[1] is model[2])
print("model[1:] keys:", list(head.state_dict()))  # the slice keeps the old names

# append and extend add at the end, insert at a position; the names are renumbered
grown = nn.Sequential(nn.Linear(4, 3), nn.Linear(3, 2))
grown.append(nn.Softmax(dim=1))  # returns the Sequential itself
grown.insert(1, nn.ReLU())
grown.extend([nn.Identity(), nn.Identity()])
print("grown:", [type(m).__name__ for m in grown])
print("grown keys:", list(grown.state_dict()))
del grown[0]  # deleting renumbers too
print("after del:", [name for name, _ in grown.named_children()])

# append names the new module str(len(head)), "2" here: it replaces the slice's Linear
head.append(nn.Tanh())
print("head after append:", [f"{name}={type(m).__name__}" for name, m in head.named_children()])

# A plain dict is not accepted, and forward takes exactly one input
try:
    nn.Sequential({"hidden": nn.Linear(4, 3)})
except TypeError as error:
    print(f"dict: TypeError: {error}")
try:
    model(torch.ones(5, 4), torch.ones(5, 4))
except TypeError as error:
    print(f"two inputs: TypeError: {error}")
