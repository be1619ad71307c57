"""FSDP2 on gloo: do the sharded gradients equal one process's on the whole batch?

Run: torchrun --standalone --nproc-per-node=2 fsdp2_grad_parity.py
Variants: gloo-cpu, nccl-cuda
"""
import copy
import gc
import os

import torch
import torch.distributed as dist
# Before init_process_group: imported later (as optimizers do), it keeps a reference
# to the default group, and destroy_process_group() cannot free it (torch 2.15).
import torch.distributed.nn  # noqa: F401
from torch import nn
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
device_type = os.environ.get("DEVICE", "cpu")
device_id = None
if device_type == "cuda":
    device_id = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device_id)
dist.init_process_group(backend, device_id=device_id)
rank, world = dist.get_rank(), dist.get_world_size()

mesh = init_device_mesh(device_type, (world,))
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 2)).to(device_type)
reference = copy.deepcopy(model)  # an unsharded copy, trained on the whole batch
fully_shard(model[0], mesh=mesh)
fully_shard(model[2], mesh=mesh)
fully_shard(model, mesh=mesh)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
ref_optimizer = torch.optim.SGD(reference.parameters(), lr=0.1)

torch.manual_seed(1)  # the same global batch on every rank; each rank takes its rows
x = torch.randn(8, 4, device=device_type)
y = torch.randn(8, 2, device=device_type)
rows = slice(rank * 8 // world, (rank + 1) * 8 // world)
for step in range(2):
    nn.functional.mse_loss(model(x[rows]), y[rows]).backward()
    nn.functional.mse_loss(reference(x), y).backward()
    matches, ratios = [], []
    for param, ref in zip(model.parameters(), reference.parameters()):
        grad = param.grad.full_tensor()  # the averaged gradient, gathered
        matches.append(torch.allclose(grad, ref.grad, atol=1e-6))
        ratios.append(round((grad.norm() / ref.grad.norm()).item(), 2))  # 2.0 if summed
    print(f"rank {rank} step {step}: gradients match {all(matches)}, ratios {ratios}")
    optimizer.step()
    ref_optimizer.step()
    optimizer.zero_grad()
    ref_optimizer.zero_grad()
same = all(torch.allclose(p.full_tensor(), r, atol=1e-6)
           for p, r in zip(model.parameters(), reference.parameters()))
print(f"rank {rank} parameters equal the reference after 2 steps: {same}")

del model, optimizer, mesh
gc.collect()  # FSDP's modules, hooks and graphs form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
