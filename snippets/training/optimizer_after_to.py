"""Move the model with .to(device) first, then create the optimizer.

Run: python optimizer_after_to.py
Variants: cpu, cuda
"""
import os

import torch
from torch import nn

DEVICE = os.environ.get("DEVICE", "cpu")  # DEVICE=cuda on a GPU machine
device = torch.device(DEVICE)

torch.manual_seed(0)
model = nn.Linear(2, 1).to(device)  # 1. the model on its device
optimizer = torch.optim.Adam(model.parameters(), lr=0.1)  # 2. the optimizer
x = torch.ones(4, 2, device=device)
model(x).pow(2).mean().backward()
optimizer.step()
state = optimizer.state[model.weight]  # Adam's state, made at the 1st step
print(state["exp_avg"].device.type)    # on the parameter's device

# .to() keeps the same Parameter objects: the optimizer still holds them.
# (A dtype change goes through the same code as a device change.)
weight = model.weight
model.to(torch.float64)
print(weight is model.weight,
      optimizer.param_groups[0]["params"][0] is model.weight)
# ... but the state that already exists was not converted
print(model.weight.dtype, state["exp_avg"].dtype)

optimizer.zero_grad()
model(x.double()).pow(2).mean().backward()
try:
    optimizer.step()
except RuntimeError as error:
    print(f"RuntimeError: {error}")
