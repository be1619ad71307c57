"""nn.ParameterList and nn.ParameterDict: parameters held in a list or dict that the module
registers; a plain tensor put in becomes a Parameter; ParameterDict sorts a plain dict's keys.

Run: python container_parameters.py
"""
import torch
from torch import nn


class Mixture(nn.Module):
    def __init__(self, sizes):
        super().__init__()
        self.plain = [nn.Parameter(torch.ones(n)) for n in sizes]  # not registered
        self.weights = nn.ParameterList(nn.Parameter(torch.ones(n)) for n in sizes)
        self.scales = nn.ParameterDict({"out": nn.Parameter(torch.ones(1))})

    def forward(self, x):
        return sum(w.sum() for w in self.weights) * self.scales["out"] * x


model = Mixture([2, 3])
print("parameters:", [(name, p.numel()) for name, p in model.named_parameters()])
print("state_dict:", list(model.state_dict()))

# The optimizer finds what parameters() yields: the ParameterList, not the plain list
optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
model(torch.ones(1)).sum().backward()
optimizer.step()
print("after a step: weights[0]", model.weights[0].tolist(), "plain[0]", model.plain[0].tolist())

# append/extend take a Parameter or a plain tensor, which becomes a Parameter (trainable)
model.weights.append(torch.zeros(4))
model.weights.extend([nn.Parameter(torch.zeros(1), requires_grad=False)])  # kept as it is
for i, p in enumerate(model.weights):
    print(f"weights[{i}]:", type(p).__name__, tuple(p.shape), "requires_grad", p.requires_grad)
try:
    model.weights.append(torch.zeros(1, dtype=torch.int64))  # Parameter() wants gradients
except RuntimeError as error:
    print(f"int64: RuntimeError: {error}")

# ParameterDict: string keys, dict methods; a plain dict is taken in sorted key order
scales = nn.ParameterDict({"zeta": torch.ones(1), "alpha": torch.ones(2)})
print("from a dict:", list(scales))
scales["beta"] = nn.Parameter(torch.zeros(3))
scales.update([("gamma", torch.zeros(1))])  # a list of pairs keeps its order
print("keys:", list(scales.keys()), "state_dict:", list(scales.state_dict()))
print("get:", scales.get("missing"), "| 'beta' in scales:", "beta" in scales)
print("pop:", tuple(scales.pop("zeta").shape), "left:", list(scales))
