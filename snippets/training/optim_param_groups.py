"""Parameter groups from named_parameters(): no weight decay for biases and norm weights,
another learning rate for the head; optimizer.param_groups.

Run: python optim_param_groups.py
"""
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.LayerNorm(4), nn.Linear(4, 2))

# Biases and norm weights are 1-D: decay only the matrices
decay, no_decay = [], []
for name, param in model.named_parameters():
    (decay if param.ndim >= 2 else no_decay).append((name, param))
optimizer = torch.optim.AdamW([
    {"params": decay, "weight_decay": 0.1},
    {"params": no_decay, "weight_decay": 0.0},
], lr=0.01)
for group in optimizer.param_groups:  # one dict per group
    print(group["param_names"], "weight_decay:", group["weight_decay"], "lr:", group["lr"])

# A step with zero gradients: only weight decay moves a parameter
before = {name: param.detach().clone() for name, param in model.named_parameters()}
for param in model.parameters():
    param.grad = torch.zeros_like(param)
optimizer.step()
moved = [name for name, param in model.named_parameters()
         if not torch.equal(param.detach(), before[name])]
print("moved:", moved)

# Another lr for the head; a group without "lr" gets the default
body, head = model[:2], model[2]
optimizer = torch.optim.SGD([
    {"params": body.parameters()},
    {"params": head.parameters(), "lr": 0.1},
], lr=0.01, momentum=0.9)
print("lr per group:", [group["lr"] for group in optimizer.param_groups])
for group in optimizer.param_groups:  # what a scheduler does: edit group["lr"]
    group["lr"] *= 0.5
print("after halving:", [group["lr"] for group in optimizer.param_groups])

# A parameter may belong to one group only
try:
    torch.optim.SGD([{"params": model.parameters()},
                     {"params": head.parameters(), "lr": 0.1}], lr=0.01)
except ValueError as error:
    print(f"ValueError: {error}")
