"""Optimizer.state_dict(): "state" indexed by position and "param_groups"; resuming from it
gives the same next step. zero_grad(set_to_none=True) against False.

Run: python optim_state_dict.py
"""
import copy

import torch
from torch import nn

torch.manual_seed(0)
x, y = torch.randn(8, 3), torch.randn(8, 1)


def make():
    torch.manual_seed(1)
    model = nn.Linear(3, 1)
    return model, torch.optim.Adam(model.parameters(), lr=0.1)


def train_step(model, optimizer):
    optimizer.zero_grad()
    nn.functional.mse_loss(model(x), y).backward()
    optimizer.step()


model, optimizer = make()
print(isinstance(optimizer, torch.optim.Optimizer))  # the base class of every optimizer
print("before the first step:", optimizer.state_dict()["state"])  # state is created lazily
train_step(model, optimizer)
state = optimizer.state_dict()
print(list(state))
print("state keys:", list(state["state"]), "params:", state["param_groups"][0]["params"])
print("per parameter:", list(state["state"][0]))
print("group:", sorted(state["param_groups"][0]))

# state_dict() holds the live tensors: copy it (or torch.save it) to keep this point
checkpoint = copy.deepcopy({"model": model.state_dict(), "optimizer": state})
step_before = state["state"][0]["step"].item()
train_step(model, optimizer)  # the next step, uninterrupted
print("step in the dict taken earlier:", step_before, "->", state["state"][0]["step"].item())

for load_optimizer in (True, False):
    resumed_model, resumed_optimizer = make()
    resumed_model.load_state_dict(checkpoint["model"])
    if load_optimizer:
        resumed_optimizer.load_state_dict(checkpoint["optimizer"])
    train_step(resumed_model, resumed_optimizer)
    print(f"optimizer state loaded: {load_optimizer}, same next step:",
          torch.equal(model.weight, resumed_model.weight))

# Loading matches parameters by position, even when they were given with names
a, b = nn.Parameter(torch.zeros(1)), nn.Parameter(torch.zeros(1))
first = torch.optim.SGD([("a", a), ("b", b)], lr=0.1, momentum=0.9)
a.grad, b.grad = torch.tensor([1.0]), torch.tensor([3.0])
first.step()
swapped = torch.optim.SGD([("b", b), ("a", a)], lr=0.1, momentum=0.9)  # other order
swapped.load_state_dict(first.state_dict())
print("b's momentum buffer:", first.state[b]["momentum_buffer"], "saved,",
      swapped.state[b]["momentum_buffer"], "loaded")

# zero_grad(): set_to_none=True (default) skips the parameter at the next step;
# set_to_none=False leaves zeros, and momentum still moves it
for set_to_none in (True, False):
    param = nn.Parameter(torch.ones(2))
    sgd = torch.optim.SGD([param], lr=0.1, momentum=0.9)
    param.grad = torch.ones(2)
    sgd.step()  # fills the momentum buffer
    sgd.zero_grad(set_to_none=set_to_none)
    sgd.step()
    print(f"set_to_none={set_to_none}: grad {param.grad}, param {param.detach()}")
