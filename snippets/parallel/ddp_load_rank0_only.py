"""Loading weights on rank 0 alone: after DDP(...) the other ranks keep their old weights;
before it, the DDP constructor copies them.

Run: torchrun --standalone --nproc-per-node=2 ddp_load_rank0_only.py
Variants: gloo-cpu, nccl-cuda
"""
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
device_ids = [device.index] if device.type == "cuda" else None


def same_on_all_ranks(tensor):
    """Whether `tensor` holds the same values on every rank."""
    low, high = tensor.detach().clone(), tensor.detach().clone()
    dist.all_reduce(low, op=dist.ReduceOp.MIN)
    dist.all_reduce(high, op=dist.ReduceOp.MAX)
    return torch.equal(low, high)


def rounded(tensor):
    return [round(v, 4) for v in tensor.flatten().tolist()]


checkpoint = {"weight": torch.ones(1, 3), "bias": torch.zeros(1)}  # stands for torch.load(...)

torch.manual_seed(0)
model = DDP(nn.Linear(3, 1).to(device), device_ids=device_ids)
if rank == 0:
    model.module.load_state_dict(checkpoint)  # wrong: only rank 0 changes
print("loaded on rank 0 after DDP(...): ", rounded(model.module.weight))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
model(torch.randn(4, 3, device=device)).sum().backward()
optimizer.step()  # same averaged gradient on every rank, applied to different weights
print("  equal on all ranks after a step:", same_on_all_ranks(model.module.weight))
del model, optimizer

torch.manual_seed(0)
net = nn.Linear(3, 1).to(device)
if rank == 0:
    # before wrapping: the constructor broadcasts rank 0's weights
    net.load_state_dict(checkpoint)
model = DDP(net, device_ids=device_ids)
print("loaded on rank 0 before DDP(...):", rounded(model.module.weight))
print("  equal on all ranks:", same_on_all_ranks(model.module.weight))

del model  # free DDP before tearing down the process group it uses
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
