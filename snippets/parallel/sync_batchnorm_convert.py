"""SyncBatchNorm.convert_sync_batchnorm swaps every BatchNorm layer; on CPU, DDP refuses the
result.

Run: torchrun --standalone --nproc-per-node=2 sync_batchnorm_convert.py
"""
import os

import torch
import torch.distributed as dist
# Before init_process_group: imported later (as DDP and optimizers do), it keeps a reference
# to the default group, and destroy_process_group() cannot free it (torch 2.15).
import torch.distributed.nn  # noqa: F401
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP

backend = os.environ.get("BACKEND", "gloo")
dist.init_process_group(backend)

torch.manual_seed(0)
net = nn.Sequential(nn.Conv2d(3, 4, 3), nn.BatchNorm2d(4), nn.ReLU())
net[1].running_mean.fill_(0.5)  # pretend the layer was trained
net = nn.SyncBatchNorm.convert_sync_batchnorm(net)  # convert before wrapping with DDP
print("layers:", [type(layer).__name__ for layer in net])
print("running_mean kept:", net[1].running_mean.tolist())

try:
    model = DDP(net)  # a CPU model: SyncBatchNorm needs GPUs
except ValueError as exc:
    print("DDP on CPU:", exc)

dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
