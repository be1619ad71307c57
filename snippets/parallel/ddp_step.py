"""One DistributedDataParallel training step: ranks see different data, parameters stay equal.

Run: torchrun --standalone --nproc-per-node=2 ddp_step.py
Variants: gloo-cpu, nccl-cuda, nccl-cuda-1
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

torch.manual_seed(0)  # same initial weights everywhere (DDP also broadcasts rank 0's)
model = DDP(nn.Linear(4, 1).to(device),
            device_ids=[device.index] if device.type == "cuda" else None)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

torch.manual_seed(1 + rank)  # each rank gets its own batch
x, y = torch.randn(8, 4, device=device), torch.randn(8, 1, device=device)
loss = nn.functional.mse_loss(model(x), y)
loss.backward()  # DDP averages the gradients of all ranks here
optimizer.step()

print(f"rank {rank} local loss: {loss.item():.4f}")
weight = model.module.weight.detach().cpu()
print(f"rank {rank} weight after the step: {[round(w, 4) for w in weight.flatten().tolist()]}")

del model, optimizer  # free DDP before tearing down the process group it uses
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
