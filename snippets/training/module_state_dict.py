"""Module.state_dict() and load_state_dict(): dotted keys, buffers included; strict loading
reports missing and unexpected keys, strict=False returns them.

Run: python module_state_dict.py
"""
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self, head_name="head"):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3))
        setattr(self, head_name, nn.Linear(3, 1))  # the attribute name is the key


torch.manual_seed(0)
state = Net().state_dict()
for key, value in state.items():  # attribute path, then parameter or buffer name
    print(f"{key:28} {tuple(value.shape)}")

# A model with the same layers under another attribute name
renamed = Net(head_name="classifier")
try:
    renamed.load_state_dict(state)  # strict=True by default
except RuntimeError as error:
    for line in str(error).splitlines():
        print(line.strip())
# The error comes after the copy: the keys that matched are loaded already
print("body loaded anyway:", torch.equal(renamed.body[0].weight, state["body.0.weight"]))

result = renamed.load_state_dict(state, strict=False)  # no error: check the lists
print(result.missing_keys, result.unexpected_keys)
print(Net().load_state_dict(state))

# strict=False does not skip a shape mismatch
try:
    nn.Linear(2, 4).load_state_dict(nn.Linear(2, 3).state_dict(), strict=False)
except RuntimeError as error:
    print(str(error).splitlines()[1].strip())

# The values are the live tensors (detached): copy them to keep a snapshot
model = nn.Linear(1, 1)
live, snapshot = model.state_dict(), {k: v.clone() for k, v in model.state_dict().items()}
with torch.no_grad():
    model.bias.fill_(5.0)
print("live:", live["bias"].item(), "snapshot changed:", snapshot["bias"].item() == 5.0,
      "requires_grad:", live["bias"].requires_grad)
