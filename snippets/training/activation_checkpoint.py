"""Activation checkpointing: checkpoint(use_reentrant=False) gives the same gradients as a plain
backward and runs the forward again during backward; the RNG state is restored for dropout;
checkpoint_sequential splits an nn.Sequential into segments.

Run: python activation_checkpoint.py
"""
import torch
from torch import nn
from torch.utils.checkpoint import checkpoint, checkpoint_sequential

torch.manual_seed(0)
block = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 4))
x = torch.randn(2, 4, requires_grad=True)
calls = []


def run_block(t):
    calls.append("forward")  # counts every run, the recomputation included
    return block(t)


# Reference: a plain forward and backward
run_block(x).sum().backward()
ref_w, ref_x = block[0].weight.grad.clone(), x.grad.clone()
block.zero_grad()
x.grad = None
calls.clear()

# Checkpointed: the block's activations are not kept; backward recomputes them
out = checkpoint(run_block, x, use_reentrant=False)
print("calls after forward:", len(calls))
out.sum().backward()
print("calls after backward:", len(calls))  # the forward ran again
print("same weight grad:", torch.allclose(block[0].weight.grad, ref_w), "same input grad:",
      torch.allclose(x.grad, ref_x))

# Dropout inside: the RNG state is saved and restored, so the recomputation drops the same units
drop = nn.Sequential(nn.Linear(4, 4), nn.Dropout(0.5))
torch.manual_seed(1)
drop(x).sum().backward()
ref = drop[0].weight.grad.clone()
drop.zero_grad()
torch.manual_seed(1)
checkpoint(drop, x, use_reentrant=False).sum().backward()
print("dropout, same grad:", torch.allclose(drop[0].weight.grad, ref))

# Extra arguments go after the function; keyword arguments too (with use_reentrant=False)
def scaled(t, scale=1.0):
    return (t * scale).relu()


y = checkpoint(scaled, x, scale=2.0, use_reentrant=False)
print("kwargs:", tuple(y.shape), y.requires_grad)

# checkpoint_sequential: 2 segments; the last one runs normally, the others are checkpointed
model = nn.Sequential(*[nn.Linear(4, 4) for _ in range(4)])
model(x).sum().backward()
ref = [p.grad.clone() for p in model.parameters()]
model.zero_grad()
out = checkpoint_sequential(model, 2, x, use_reentrant=False)
out.sum().backward()
print("sequential, same grads:",
      all(torch.allclose(p.grad, r) for p, r in zip(model.parameters(), ref)))
