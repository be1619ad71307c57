"""Distributed evaluation under DDP: each rank scores its share of the validation set with
model.eval() and torch.inference_mode(); all_gather_object collects the predictions, and the
duplicates that DistributedSampler added to even out the shares are dropped by index.

Run: torchrun --standalone --nproc-per-node=2 ddp_eval.py
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
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
if os.environ.get("DEVICE", "cpu") == "cuda":
    device = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device)
else:
    device = torch.device("cpu")
dist.init_process_group(backend, device_id=device if device.type == "cuda" else None)
rank, world = dist.get_rank(), dist.get_world_size()

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(4, 3), nn.Dropout(0.5))  # dropout: eval() must switch it off
model = DDP(net.to(device), device_ids=[device.index] if device.type == "cuda" else None)

# 7 validation samples: with 2 ranks the sampler pads to 8, repeating sample 0.
features = torch.randn(7, 4)
dataset = TensorDataset(torch.arange(7), features)
sampler = DistributedSampler(dataset, shuffle=False)
print("this rank's indices:", list(sampler))
loader = DataLoader(dataset, batch_size=2, sampler=sampler)

model.eval()  # dropout off (batch norm would use its running statistics)
mine = []
with torch.inference_mode():  # no autograd graph is recorded: less memory, faster
    for index, xb in loader:
        pred = model(xb.to(device)).argmax(dim=1).cpu()
        mine += list(zip(index.tolist(), pred.tolist()))

everyone = [None] * world
dist.all_gather_object(everyone, mine)  # every rank gets every rank's list
merged = dict(pair for part in everyone for pair in part)  # a repeated index counts once
print("predictions gathered:", sum(len(p) for p in everyone), "| unique samples:", len(merged))

# Check against one process scoring the whole set with the same weights.
with torch.inference_mode():
    reference = model.module(features.to(device)).argmax(dim=1).cpu().tolist()
print("equal to a single-process evaluation:", [merged[i] for i in range(7)] == reference)

del model  # free DDP before tearing down the process group it uses
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
