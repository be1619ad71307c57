"""SyncBatchNorm under DDP on GPUs: batch statistics come from the global batch,
not from each rank's own.

Run: torchrun --standalone --nproc-per-node=2 sync_batchnorm.py
Variants: nccl-cuda
"""
import os

import torch
import torch.distributed as dist
# Before init_process_group: imported later (as DDP and optimizers do), it keeps a reference
# to the default group, and destroy_process_group() cannot free it (torch 2.15).
import torch.distributed.nn  # noqa: F401
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP

backend = os.environ.get("BACKEND", "nccl")  # SyncBatchNorm needs GPUs: one per rank
device = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
torch.cuda.set_device(device)
dist.init_process_group(backend, device_id=device)
rank = dist.get_rank()

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(3, 3), nn.BatchNorm1d(3)).to(device)
plain_bn = nn.BatchNorm1d(3).to(device)  # an ordinary BatchNorm, for comparison
net = nn.SyncBatchNorm.convert_sync_batchnorm(net)
model = DDP(net, device_ids=[device.index])

torch.manual_seed(1 + rank)
x = (torch.randn(8, 3) + 2 * rank).to(device)  # the ranks' batches have different means
model(x).sum().backward()  # training mode: the forward pass updates running_mean
features = net[0](x).detach()  # what the BatchNorm layer saw on this rank
plain_bn(features)

gathered = [torch.empty_like(features) for _ in range(dist.get_world_size())]
dist.all_gather(gathered, features)
global_mean = 0.1 * torch.cat(gathered).mean(dim=0)  # momentum 0.1, running_mean starts at 0
sync_mean = net[1].running_mean
print("SyncBatchNorm running_mean:", [round(v, 4) for v in sync_mean.tolist()])
print("BatchNorm1d running_mean:  ", [round(v, 4) for v in plain_bn.running_mean.tolist()])
print("SyncBatchNorm used the global batch:", torch.allclose(sync_mean, global_mean, atol=1e-6))

del model  # free DDP before tearing down the process group it uses
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
