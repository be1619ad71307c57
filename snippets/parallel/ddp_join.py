"""Uneven inputs: inside model.join(), a rank that runs out of batches keeps answering
the other ranks' all-reduces.

Run: torchrun --standalone --nproc-per-node=2 ddp_join.py
Variants: gloo-cpu, nccl-cuda
Output: same on all devices
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

torch.manual_seed(0)
model = DDP(nn.Linear(3, 1).to(device),
            device_ids=[device.index] if device.type == "cuda" else None)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

torch.manual_seed(1 + rank)
batches = [torch.randn(4, 3, device=device) for _ in range(3 + 2 * rank)]  # rank 0: 3, rank 1: 5

with model.join():  # without it, rank 1's 4th backward would wait for rank 0 forever
    for x in batches:
        optimizer.zero_grad()
        model(x).pow(2).mean().backward()
        optimizer.step()
print(f"steps run on this rank: {len(batches)}")

weight = model.module.weight.detach()
reference = weight.clone()
dist.broadcast(reference, src=0)
print("weights equal to rank 0's:", torch.equal(weight, reference))

del model, optimizer  # free DDP before tearing down the process group it uses
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
