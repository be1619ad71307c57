"""Compiling a module: torch.compile(model) returns a wrapper (OptimizedModule) that shares the
model's parameters and prefixes its state_dict keys with "_orig_mod."; model.compile() compiles
in place and keeps the keys. A training step through the compiled module (the backward pass is
compiled too) gives the eager gradients and weights.

Run: python compile_module.py
"""
import copy

import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
eager = copy.deepcopy(model)  # the same weights, never compiled

compiled = torch.compile(model)
print("torch.compile(model):", type(compiled).__name__)
print("  shares the parameters:", next(compiled.parameters()) is model[0].weight)
print("  state_dict keys:", list(compiled.state_dict())[:2])

# One training step each, on the same batch
x, y = torch.randn(16, 4), torch.randn(16, 1)
for net in (eager, compiled):
    optimizer = torch.optim.SGD(net.parameters(), lr=0.1)
    loss = nn.functional.mse_loss(net(x), y)  # compiled: the forward graph
    loss.backward()  # compiled: the backward graph
    optimizer.step()
print("same gradients:", all(torch.allclose(p.grad, q.grad, atol=1e-6)
                             for p, q in zip(eager.parameters(), model.parameters())))
print("same weights after the step:",
      all(torch.allclose(p, q, atol=1e-6)
          for p, q in zip(eager.parameters(), model.parameters())))

# A plain model cannot load the wrapper's keys; the original module's keys fit
fresh = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
try:
    fresh.load_state_dict(compiled.state_dict())
except RuntimeError as error:
    first, _, unexpected = str(error).splitlines()  # the first line, missing, unexpected
    print(f"RuntimeError: {first}")
    print(" ", unexpected.strip())
print("model.state_dict() loads:", fresh.load_state_dict(model.state_dict()))

# model.compile(): the same object, compiled in place; keys unchanged
inplace = copy.deepcopy(eager)
inplace.compile()
print("model.compile():", type(inplace).__name__, list(inplace.state_dict())[:2])
print("  same output as eager:", torch.allclose(inplace(x), eager(x), atol=1e-6))
