"""Newer torch.nn.utils and checkpoint names: get_total_norm with clip_grads_with_norm_,
parametrizations.weight_norm, convert_conv3d_weight_memory_format, selective checkpointing
(create_selective_checkpoint_contexts, CheckpointPolicy), CheckpointError,
set_checkpoint_debug_enabled, set_checkpoint_early_stop, GraphExecGroup.

Run: python nn_utils_newer.py
"""
import functools

import torch
from torch import nn
from torch.nn.utils import (clip_grads_with_norm_, convert_conv3d_weight_memory_format,
                            get_total_norm)
from torch.nn.utils import parametrizations
from torch.utils.checkpoint import (CheckpointError, CheckpointPolicy, GraphExecGroup,
                                    SelectiveCheckpointContext, checkpoint,
                                    create_selective_checkpoint_contexts,
                                    set_checkpoint_debug_enabled,
                                    set_checkpoint_early_stop)

torch.manual_seed(0)

# Clipping in two steps: compute the norm (e.g. reduce it across ranks), then scale
a, b = nn.Parameter(torch.zeros(2)), nn.Parameter(torch.zeros(1))
a.grad, b.grad = torch.tensor([3.0, 0.0]), torch.tensor([4.0])
grads = [p.grad for p in (a, b)]
total = get_total_norm(grads)  # takes the gradients, not the parameters
print("total norm:", round(total.item(), 4))
clip_grads_with_norm_([a, b], max_norm=1.0, total_norm=total)
print("clipped:", [round(v, 4) for v in a.grad.tolist() + b.grad.tolist()])

# weight_norm as a parametrization: weight = g * v / ||v||, g and v are trained
wn = parametrizations.weight_norm(nn.Linear(3, 2))
print("weight_norm keys:", list(wn.state_dict()))
g, v = wn.parametrizations.weight.original0, wn.parametrizations.weight.original1
print("g:", tuple(g.shape), "rebuilt:",
      torch.allclose(wn.weight, g * v / v.norm(dim=1, keepdim=True)))

# channels_last_3d weights for Conv3d
net = convert_conv3d_weight_memory_format(nn.Sequential(nn.Conv3d(2, 2, 1)),
                                          torch.channels_last_3d)
print("channels_last_3d:", net[0].weight.is_contiguous(memory_format=torch.channels_last_3d))

# Selective checkpointing: a policy says, op by op, what to keep and what to recompute
seen = []


def policy(ctx, op, *args, **kwargs):
    assert isinstance(ctx, SelectiveCheckpointContext)
    if not ctx.is_recompute:  # the first run, not the recomputation
        seen.append(str(op))
    return (CheckpointPolicy.MUST_SAVE if op == torch.ops.aten.mm.default
            else CheckpointPolicy.PREFER_RECOMPUTE)


def f(x, w):
    return torch.mm(x, w).sin().sum()


x, w = torch.randn(2, 3, requires_grad=True), torch.randn(3, 3, requires_grad=True)
f(x, w).backward()
ref = w.grad.clone()
w.grad = None
ctx_fn = functools.partial(create_selective_checkpoint_contexts, policy)
checkpoint(f, x, w, use_reentrant=False, context_fn=ctx_fn).backward()
print("policy saw:", seen, "same grad:", torch.allclose(w.grad, ref))
# A list of ops is the short form of "save these, recompute the rest"
ctx_list = functools.partial(create_selective_checkpoint_contexts, [torch.ops.aten.mm.default])
print("list form:", checkpoint(f, x, w, use_reentrant=False, context_fn=ctx_list).requires_grad)

# A function that computes something else when it runs again: CheckpointError in backward
runs = []


def unstable(t):
    runs.append(1)
    return (t if len(runs) == 1 else t[:1]).sin().sum()


try:
    checkpoint(unstable, x, use_reentrant=False).backward()
except CheckpointError:
    print("recomputed differently: CheckpointError")
runs.clear()
with set_checkpoint_debug_enabled(True):  # the error then carries a log of both runs
    try:
        checkpoint(unstable, x, use_reentrant=False).backward()
    except CheckpointError as e:
        print("debug log in the error:", "dumping logs" in str(e))

# Early stop: the recomputation stops once it has what backward needs
block = nn.Sequential(nn.Linear(3, 3), nn.Tanh())
hooks = []
block.register_forward_hook(lambda *args: hooks.append(1))
checkpoint(block, x, use_reentrant=False).sum().backward()
print("forward hooks, early stop:", len(hooks))  # the recomputation stopped before the hook
hooks.clear()
with set_checkpoint_early_stop(False):  # needed while the forward runs
    out = checkpoint(block, x, use_reentrant=False)
out.sum().backward()
print("forward hooks, no early stop:", len(hooks))

# GraphExecGroup: two backward calls over disjoint parts recompute the region once
calls = []


def two_outputs(t):
    calls.append(1)
    return t.sin(), t * t


s, c = checkpoint(two_outputs, x, use_reentrant=False)
s.sum().backward()
c.sum().backward()
print("runs without a group:", len(calls))
calls.clear()
with GraphExecGroup():
    s, c = checkpoint(two_outputs, x, use_reentrant=False)
    s.sum().backward()
    c.sum().backward()
print("runs with a group:", len(calls))
