"""FSDP2 gradient accumulation: set_requires_gradient_sync(False) defers the reduction.

Run: torchrun --standalone --nproc-per-node=2 fsdp2_grad_accumulation.py
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
rank = dist.get_rank()

mesh = init_device_mesh(device_type, (2,))
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 2)).to(device_type)
reference = copy.deepcopy(model)  # unsharded, sees every micro-batch of every rank
fully_shard(model[0], mesh=mesh)
fully_shard(model[2], mesh=mesh)
fully_shard(model, mesh=mesh)

torch.manual_seed(1)  # 2 micro-batches of 4 rows per rank: 16 rows in all
x = torch.randn(2, 2, 4, 4, device=device_type)  # [micro-batch, rank, rows, features]
y = torch.randn(2, 2, 4, 2, device=device_type)
for micro in range(2):
    last = micro == 1
    model.set_requires_gradient_sync(last)  # reduce only after the last micro-batch
    loss = nn.functional.mse_loss(model(x[micro, rank]), y[micro, rank]) / 2
    loss.backward()
    grad = model[0].weight.grad  # None until the gradients are reduced
    shown = "None"
    if grad is not None:
        shown = f"{grad.placements}, local {list(grad.to_local().shape)}"
    print(f"rank {rank} micro-batch {micro}: sync {last}, 0.weight.grad {shown}")
    for r in range(2):  # the reference: the same micro-batches of both ranks
        ref_loss = nn.functional.mse_loss(reference(x[micro, r]), y[micro, r]) / 4
        ref_loss.backward()
same = all(torch.allclose(p.grad.full_tensor(), r.grad, atol=1e-6)
           for p, r in zip(model.parameters(), reference.parameters()))
print(f"rank {rank} accumulated gradients equal the single-process ones: {same}")

del model, loss, grad, mesh
gc.collect()  # FSDP's modules, hooks and graphs form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
