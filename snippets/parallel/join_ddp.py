"""Join([model]): the same uneven loop as uneven_no_join.py finishes on both ranks.

Inside the Join context, rank 1, out of batches after 2 steps, keeps answering rank 0's
gradient all-reduces (with zeros) until rank 0 is done too; on the way out, DDP's join hook
makes every rank hold the parameters of the rank that trained last.

Run: torchrun --standalone --nproc-per-node=2 join_ddp.py
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
from torch.distributed.algorithms.join import Join
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
# rank 0: 3, rank 1: 2; drawn on the CPU
batches = [torch.randn(4, 3).to(device) for _ in range(3 - rank)]

steps = 0
with Join([model]):  # model.join() is the same, for DDP alone
    for x in batches:
        optimizer.zero_grad()
        model(x).pow(2).mean().backward()
        optimizer.step()
        steps += 1
print(f"rank {rank}: {steps} steps done of {len(batches)} batches")

params = torch.cat([p.detach().flatten() for p in model.parameters()])
print(f"rank {rank}: parameters {[round(v, 4) for v in params.tolist()]}")
reference = params.clone()
dist.broadcast(reference, src=0)
print(f"rank {rank}: parameters equal to rank 0's: {torch.equal(params, reference)}")

del model, optimizer  # free DDP before tearing down the process group it uses
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
