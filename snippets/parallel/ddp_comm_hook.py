"""DDP communication hooks: register_comm_hook replaces how DDP averages each gradient
bucket. The built-in allreduce_hook does what DDP does anyway; fp16_compress_hook sends the
gradients as float16 (half the bytes) and casts the result back; your own hook gets each
bucket and returns a Future of the averaged gradients.

Run: torchrun --standalone --nproc-per-node=2 ddp_comm_hook.py
Variants: gloo-cpu, nccl-cuda
"""
import os

import torch
import torch.distributed as dist
# Before init_process_group: imported later (as DDP and optimizers do), it keeps a reference
# to the default group, and destroy_process_group() cannot free it (torch 2.15).
import torch.distributed.nn  # noqa: F401
from torch import nn
from torch.distributed.algorithms.ddp_comm_hooks import default_hooks
from torch.nn.parallel import DistributedDataParallel as DDP

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
if os.environ.get("DEVICE", "cpu") == "cuda":
    device = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device)
else:
    device = torch.device("cpu")
dist.init_process_group(backend, device_id=device if device.type == "cuda" else None)
rank = dist.get_rank()


def make_ddp():
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 1)).to(device)
    return DDP(net, device_ids=[device.index] if device.type == "cuda" else None)


def logging_hook(state, bucket):
    """A hook of your own: note the bucket, then average it like allreduce_hook does."""
    state.append((bucket.index(), bucket.buffer().numel()))
    return default_hooks.allreduce_hook(None, bucket)  # None: the default process group


torch.manual_seed(1 + rank)
x, y = torch.randn(16, 32, device=device), torch.randn(16, 1, device=device)
grads = {}
for name, hook, state in [("no hook", None, None),
                          ("allreduce_hook", default_hooks.allreduce_hook, None),
                          ("fp16_compress_hook", default_hooks.fp16_compress_hook, None),
                          ("logging_hook", logging_hook, [])]:
    model = make_ddp()
    if hook is not None:
        model.register_comm_hook(state, hook)  # before the first backward
    nn.functional.mse_loss(model(x), y).backward()
    grads[name] = torch.cat([p.grad.flatten() for p in model.parameters()])
    diff = (grads[name] - grads["no hook"]).abs().max().item()
    print(f"{name:19s} max |grad - no hook's| = {diff:.1e}")
    if state is not None:
        print("  buckets seen (index, number of values):", state)
    del model

del grads
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
