"""Gradient accumulation with no_sync(): no communication for the first micro-batches,
one all-reduce at the last.

Run: torchrun --standalone --nproc-per-node=2 ddp_no_sync.py
Variants: gloo-cpu, nccl-cuda
Output: same on all devices
"""
import contextlib
import copy
import os

import torch
import torch.distributed as dist
# Before init_process_group: imported later (as DDP and optimizers do), it keeps a reference
# to the default group, and destroy_process_group() cannot free it (torch 2.15).
import torch.distributed.nn  # noqa: F401
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
if os.environ.get("DEVICE", "cpu") == "cuda":
    device = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device)
else:
    device = torch.device("cpu")
dist.init_process_group(backend, device_id=device if device.type == "cuda" else None)
rank = dist.get_rank()


def same_on_all_ranks(tensor):
    """Whether `tensor` holds the same values on every rank."""
    low, high = tensor.clone(), tensor.clone()
    dist.all_reduce(low, op=dist.ReduceOp.MIN)
    dist.all_reduce(high, op=dist.ReduceOp.MAX)
    return torch.equal(low, high)


ACCUMULATE = 3  # micro-batches per optimizer step
torch.manual_seed(0)
net = nn.Linear(3, 1).to(device)
alone = copy.deepcopy(net)  # accumulates this rank's gradient without DDP, for comparison
model = DDP(net, device_ids=[device.index] if device.type == "cuda" else None)

torch.manual_seed(1 + rank)
batches = [(torch.randn(4, 3, device=device), torch.randn(4, 1, device=device))
           for _ in range(ACCUMULATE)]
for i, (x, y) in enumerate(batches):
    (nn.functional.mse_loss(alone(x), y) / ACCUMULATE).backward()
    last = i == ACCUMULATE - 1
    with contextlib.nullcontext() if last else model.no_sync():  # forward AND backward inside
        (nn.functional.mse_loss(model(x), y) / ACCUMULATE).backward()  # the last all-reduces
    print(f"after micro-batch {i}: gradient same on all ranks:",
          same_on_all_ranks(net.weight.grad))

mean = alone.weight.grad.clone()
dist.all_reduce(mean, op=dist.ReduceOp.AVG)
print("equal to the mean of the accumulated gradients:", torch.allclose(net.weight.grad, mean))

del model  # free DDP before tearing down the process group it uses
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
