"""Distributed evaluation with dist.all_gather on tensors: DistributedSampler(shuffle=False)
deals the samples out round-robin and pads every rank's share to the same length, so the
gathered per-rank tensors interleave back into dataset order; the padding is the tail beyond
len(dataset), cut off in one slice.

Run: torchrun --standalone --nproc-per-node=2 ddp_eval_all_gather.py
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
ids = [device.index] if device.type == "cuda" else None
model = DDP(nn.Linear(4, 1).to(device), device_ids=ids)
features = torch.randn(7, 4)
dataset = TensorDataset(features)
sampler = DistributedSampler(dataset, shuffle=False)
loader = DataLoader(dataset, batch_size=3, sampler=sampler)

model.eval()
with torch.inference_mode():
    mine = torch.cat([model(xb.to(device)) for (xb,) in loader]).flatten()
print("this rank scored", mine.numel(), "samples")  # the same count on every rank

parts = [torch.empty_like(mine) for _ in range(world)]
dist.all_gather(parts, mine)  # every rank's tensor, in rank order (equal shapes required)
# Rank r had samples r, r + world, r + 2 * world, ...: stack and read column by column.
ordered = torch.stack(parts, dim=1).flatten()[: len(dataset)]  # drop the padding tail
print("gathered", sum(p.numel() for p in parts), "-> kept", ordered.numel())

with torch.inference_mode():
    reference = model.module(features.to(device)).flatten()
print("equal to a single-process evaluation:", torch.allclose(ordered, reference))

del model  # free DDP before tearing down the process group it uses
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
