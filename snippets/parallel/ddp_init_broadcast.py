"""The DDP constructor copies rank 0's parameters to every rank: ranks seeded apart start equal.

Run: torchrun --standalone --nproc-per-node=2 ddp_init_broadcast.py
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

torch.manual_seed(rank)  # a different seed on each rank: different initial weights
net = nn.Linear(3, 1).to(device)
print("before DDP:", [round(w, 4) for w in net.weight.flatten().tolist()])

model = DDP(net, device_ids=[device.index] if device.type == "cuda" else None)
# net changed in place
print("after DDP: ", [round(w, 4) for w in net.weight.flatten().tolist()])

del model  # free DDP before tearing down the process group it uses
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
