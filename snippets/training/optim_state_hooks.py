"""Optimizer: add_param_group for parameters that join later, optimizer.state (each parameter's
tensors after the first step), and hooks on step(), state_dict() and load_state_dict().

Run: python optim_state_hooks.py
"""
import torch
from torch import nn

torch.manual_seed(0)
body, head = nn.Linear(3, 2), nn.Linear(2, 1)
optimizer = torch.optim.Adam(body.parameters(), lr=0.01)
# The head joins later with its own lr; the options it leaves out come from the defaults
optimizer.add_param_group({"params": head.parameters(), "lr": 0.001})
print("lr per group:", [group["lr"] for group in optimizer.param_groups])
print("betas of the new group:", optimizer.param_groups[1]["betas"])
print("parameters with state before any step:", len(optimizer.state))

calls = {"pre": 0, "post": 0}


def count_pre(opt, args, kwargs):  # returns None: step() keeps its arguments
    calls["pre"] += 1


def count_post(opt, args, kwargs):
    calls["post"] += 1


pre = optimizer.register_step_pre_hook(count_pre)
post = optimizer.register_step_post_hook(count_post)
x = torch.ones(4, 3)
for _ in range(2):
    optimizer.zero_grad()
    head(body(x)).sum().backward()
    optimizer.step()
print("hook calls:", calls)
pre.remove()  # each register_* returns a handle that removes the hook
post.remove()
optimizer.step()
print("after remove():", calls)

# optimizer.state is keyed by the parameter tensor itself
state = optimizer.state[head.weight]
print("Adam state keys:", sorted(state))
print("step:", state["step"].item(), "exp_avg shape:", tuple(state["exp_avg"].shape))
print("parameters with state:", len(optimizer.state))


def before_save(opt):
    print("  state_dict pre hook")


def add_epoch(opt, state_dict):  # may change the dict, or return a new one
    state_dict["epoch"] = 3
    return state_dict


optimizer.register_state_dict_pre_hook(before_save)
optimizer.register_state_dict_post_hook(add_epoch)
saved = optimizer.state_dict()
print("state_dict keys:", sorted(saved))


def take_epoch(opt, state_dict):  # runs before loading; the dict it returns is loaded
    state_dict = dict(state_dict)
    print("  load pre hook, epoch:", state_dict.pop("epoch"))
    return state_dict


def after_load(opt):
    print("  load post hook, lr per group:", [group["lr"] for group in opt.param_groups])


optimizer.register_load_state_dict_pre_hook(take_epoch)
optimizer.register_load_state_dict_post_hook(after_load)
optimizer.load_state_dict(saved)
