"""One DDP step on N ranks of B samples each equals one step on a single batch of N*B;
scale the learning rate with care.

Run: torchrun --standalone --nproc-per-node=2 effective_batch.py
Variants: gloo-cpu, nccl-cuda
"""
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
rank, world_size = dist.get_rank(), dist.get_world_size()

PER_RANK = 4  # the DataLoader's batch_size on each rank
torch.manual_seed(0)
net = nn.Linear(3, 1).to(device)
single = copy.deepcopy(net)  # one process that sees the whole global batch
model = DDP(net, device_ids=[device.index] if device.type == "cuda" else None)

torch.manual_seed(123)  # the same global batch on every rank; each rank takes its own slice
x_all = torch.randn(world_size * PER_RANK, 3, device=device)
y_all = torch.randn(world_size * PER_RANK, 1, device=device)
mine = slice(rank * PER_RANK, (rank + 1) * PER_RANK)
nn.functional.mse_loss(model(x_all[mine]), y_all[mine]).backward()
nn.functional.mse_loss(single(x_all), y_all).backward()
print("global batch:", world_size * PER_RANK)
print("DDP gradient == single-process gradient of the global batch:",
      torch.allclose(net.weight.grad, single.weight.grad))

# a hand-written loop: local gradient, then all_reduce(SUM), no division by the world size
hand = copy.deepcopy(single)
hand.zero_grad()
nn.functional.mse_loss(hand(x_all[mine]), y_all[mine]).backward()
dist.all_reduce(hand.weight.grad, op=dist.ReduceOp.SUM)
ratio = (hand.weight.grad / net.weight.grad).mean().item()
print("summed instead of averaged:", round(ratio, 4), "x larger")

# Linear scaling rule: global batch N times larger -> learning rate N times larger after warm-up.
BASE_LR = 0.1  # tuned for batch PER_RANK on one device
optimizer = torch.optim.SGD(model.parameters(), lr=BASE_LR * world_size)
warmup = torch.optim.lr_scheduler.LinearLR(optimizer, start_factor=1 / world_size, total_iters=4)
lrs = []
for step in range(6):
    lrs.append(round(optimizer.param_groups[0]["lr"], 4))
    optimizer.step()  # (training step elided)
    warmup.step()
print("learning rate per step:", lrs)

del model, optimizer  # free DDP before tearing down the process group it uses
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
