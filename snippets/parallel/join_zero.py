"""ZeroRedundancyOptimizer inside Join: pass the optimizer to Join as well as the model.

Each rank updates only its own share of the parameters and then broadcasts it, so a rank
that has run out of batches must still take part in every optimizer step of the others.
ZeroRedundancyOptimizer is a Joinable: its join hook runs step() on the joined rank, once
per step of the others. Rank 0 has 3 batches, rank 1 has 2.

Run: torchrun --standalone --nproc-per-node=2 join_zero.py
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
from torch.distributed.optim import ZeroRedundancyOptimizer
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
net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
model = DDP(net.to(device), device_ids=[device.index] if device.type == "cuda" else None)
optimizer = ZeroRedundancyOptimizer(model.parameters(), optimizer_class=torch.optim.Adam,
                                    lr=0.01)

torch.manual_seed(1 + rank)
batches = [torch.randn(4, 3, device=device) for _ in range(3 - rank)]  # rank 0: 3, rank 1: 2

with Join([model, optimizer]):  # with Join([model]) alone, rank 0's 3rd step() would hang
    for x in batches:
        optimizer.zero_grad()
        model(x).pow(2).mean().backward()
        optimizer.step()
print(f"rank {rank}: trained on {len(batches)} batches")

# Adam counts its steps per parameter: the shadowed step counts on the joined rank too.
steps = sorted({int(s["step"]) for s in optimizer.optim.state.values()})
print(f"rank {rank}: Adam 'step' of the parameters this rank updates: {steps}")

params = torch.cat([p.detach().flatten() for p in model.parameters()])
reference = params.clone()
dist.broadcast(reference, src=0)
print(f"rank {rank}: parameters equal to rank 0's: {torch.equal(params, reference)}")

del model, optimizer  # free DDP before tearing down the process group it uses
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
