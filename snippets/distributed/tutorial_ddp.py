"""Tutorial, the same training with DistributedDataParallel: DDP averages the gradients for you.

Two copies of one model, from the same initial weights, train on the same per-rank batches:
one with the hand-written average_gradients of the previous step, one wrapped in DDP. At the
end both have the same parameters, on every rank.

Run: torchrun --standalone --nproc-per-node=2 tutorial_ddp.py
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

gen = torch.Generator().manual_seed(0)  # the synthetic dataset of the previous step
x = torch.randn(512, 4, generator=gen)
y = (x @ torch.tensor([[2.0], [-1.0], [0.5], [3.0]]) + 1.0
     + 0.1 * torch.randn(512, 1, generator=gen))
mine = torch.randperm(512, generator=torch.Generator().manual_seed(1234)).chunk(world_size)[rank]
# this rank's part, in batches of 32
batches = [(x[i].to(device), y[i].to(device)) for i in mine.split(32)]


def average_gradients(model):
    for param in model.parameters():
        dist.all_reduce(param.grad, op=dist.ReduceOp.SUM)
        param.grad /= world_size


def train(model, after_backward=None):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(3):
        for inputs, targets in batches:
            optimizer.zero_grad()
            nn.functional.mse_loss(model(inputs), targets).backward()
            if after_backward is not None:
                after_backward(model)
            optimizer.step()


torch.manual_seed(0)
by_hand = nn.Linear(4, 1).to(device)
ddp = DDP(copy.deepcopy(by_hand))  # same initial weights; DDP also broadcasts rank 0's
train(by_hand, average_gradients)
train(ddp)  # DDP all-reduces the gradients during backward()

a = torch.cat([p.detach().flatten() for p in by_hand.parameters()])
b = torch.cat([p.detach().flatten() for p in ddp.module.parameters()])
print(f"by hand: {[round(v, 4) for v in a.tolist()]}")
print(f"DDP:     {[round(v, 4) for v in b.tolist()]}")
print(f"max difference: {(a - b).abs().max().item():.1e}, allclose: "
      f"{torch.allclose(a, b, atol=1e-6)}")

del ddp  # free DDP before tearing down the process group it uses
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
