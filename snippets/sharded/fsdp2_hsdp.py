"""HSDP: fully_shard on a 2-D mesh replicates over one dimension, shards over the other.

Run: torchrun --standalone --nproc-per-node=4 fsdp2_hsdp.py
Variants: gloo-cpu, nccl-cuda
GPUs: 4
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

# typically "replicate" across machines and "shard" within one
mesh = init_device_mesh(device_type, (2, 2), mesh_dim_names=("replicate", "shard"))
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 2)).to(device_type)
reference = copy.deepcopy(model)
fully_shard(model[0], mesh=mesh)
fully_shard(model[2], mesh=mesh)
fully_shard(model, mesh=mesh)
weight = model[0].weight
print(f"rank {rank} coordinate {mesh.get_coordinate()}: 0.weight {weight.placements},"
      f" local {list(weight.to_local().shape)}")

torch.manual_seed(1)  # one batch of 8 rows, 2 rows per rank
x = torch.randn(8, 4, device=device_type)
y = torch.randn(8, 2, device=device_type)
rows = slice(2 * rank, 2 * rank + 2)
loss = nn.functional.mse_loss(model(x[rows]), y[rows])
loss.backward()  # reduce-scatter within "shard", then all-reduce across "replicate"
nn.functional.mse_loss(reference(x), y).backward()
same = all(torch.allclose(p.grad.full_tensor(), r.grad, atol=1e-6)
           for p, r in zip(model.parameters(), reference.parameters()))
print(f"rank {rank} local loss {loss.item():.4f}; gradients as one process's: {same}")

del model, loss, weight, mesh
gc.collect()  # FSDP's modules, hooks and graphs form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
