"""DDP over model-parallel replicas: 2 processes, each holding one model split over 2 GPUs
(4 GPUs in all).

Run: torchrun --standalone --nproc-per-node=2 ddp_model_parallel.py
Variants: nccl-cuda
GPUs: 4
"""
import os

import torch
import torch.distributed as dist
# Before init_process_group: imported later (as DDP and optimizers do), it keeps a reference
# to the default group, and destroy_process_group() cannot free it (torch 2.15).
import torch.distributed.nn  # noqa: F401
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP

backend = os.environ.get("BACKEND", "nccl")
local_rank = int(os.environ["LOCAL_RANK"])
dev0 = torch.device("cuda", 2 * local_rank)  # local rank 0: cuda:0 and cuda:1
dev1 = torch.device("cuda", 2 * local_rank + 1)  # local rank 1: cuda:2 and cuda:3
torch.cuda.set_device(dev0)
dist.init_process_group(backend, device_id=dev0)
rank = dist.get_rank()


class TwoGPUModel(nn.Module):
    def __init__(self, dev0, dev1):
        super().__init__()
        self.dev0, self.dev1 = dev0, dev1
        self.part1 = nn.Sequential(nn.Linear(10, 10), nn.ReLU()).to(dev0)
        self.part2 = nn.Linear(10, 5).to(dev1)

    def forward(self, x):
        x = self.part1(x.to(self.dev0))
        return self.part2(x.to(self.dev1))


torch.manual_seed(0)
model = DDP(TwoGPUModel(dev0, dev1))  # several devices: device_ids and output_device stay None
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
print(f"rank {rank} uses {dev0} and {dev1}")

torch.manual_seed(1 + rank)  # each rank gets its own batch
x, labels = torch.randn(20, 10), torch.randn(20, 5)
out = model(x)
nn.functional.mse_loss(out, labels.to(out.device)).backward()  # averaged across the 2 ranks
optimizer.step()

params = torch.cat([p.detach().flatten().to(dev0) for p in model.parameters()])
low, high = params.clone(), params.clone()
dist.all_reduce(low, op=dist.ReduceOp.MIN)
dist.all_reduce(high, op=dist.ReduceOp.MAX)
print("output on:", out.device)
print("parameters equal on all ranks after the step:", torch.equal(low, high))

del model, optimizer  # free DDP before tearing down the process group it uses
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
