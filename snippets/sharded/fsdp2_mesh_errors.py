"""fully_shard when the mesh and the model disagree: what torch raises, and what it accepts
silently.

Run: torchrun --standalone --nproc-per-node=2 fsdp2_mesh_errors.py
Variants: gloo-cpu, nccl-cuda
"""
import gc
import os

import torch
import torch.distributed as dist
# Before init_process_group: imported later (as optimizers do), it keeps a reference
# to the default group, and destroy_process_group() cannot free it (torch 2.15).
import torch.distributed.nn  # noqa: F401
from torch import nn
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import DataParallelMeshDims, fully_shard
from torch.distributed.tensor import Replicate, distribute_tensor

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
device_type = os.environ.get("DEVICE", "cpu")
device_id = None
if device_type == "cuda":
    device_id = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device_id)
dist.init_process_group(backend, device_id=device_id)
rank = dist.get_rank()


def attempt(what, action):
    try:
        print(f"rank {rank} {what}: {action()}")
    except (ValueError, AssertionError, TypeError, RuntimeError) as exc:  # printed on purpose
        print(f"rank {rank} {what}: {type(exc).__name__}: {str(exc).splitlines()[0]}")


mesh = init_device_mesh(device_type, (2,), mesh_dim_names=("dp",))
mesh_3d = init_device_mesh(device_type, (2, 1, 1), mesh_dim_names=("dp", "tp", "pp"))
attempt("3-D mesh", lambda: fully_shard(nn.Linear(4, 6), mesh=mesh_3d))
mesh_unnamed = init_device_mesh(device_type, (2, 1))
attempt("2-D mesh without names", lambda: fully_shard(nn.Linear(4, 6), mesh=mesh_unnamed))

# meant as data parallel 2 x tensor parallel 1; fully_shard reads it as HSDP
mesh_2d = init_device_mesh(device_type, (2, 1), mesh_dim_names=("dp", "tp"))
layer = fully_shard(nn.Linear(4, 6), mesh=mesh_2d)
print(f"rank {rank} 2-D (dp=2, tp=1) mesh: {layer.weight.placements},"
      f" local {list(layer.weight.to_local().shape)} of {list(layer.weight.shape)}")


def replicated_linear():
    torch.manual_seed(0)
    layer = nn.Linear(4, 6).to(device_type)
    for name, param in list(layer.named_parameters()):  # already DTensors on the mesh
        dtensor = distribute_tensor(param.detach(), mesh, [Replicate()])
        layer.register_parameter(name, nn.Parameter(dtensor))
    return layer


attempt("parameters already DTensors", lambda: fully_shard(replicated_linear(), mesh=mesh))
layer = replicated_linear()
fully_shard(layer, mesh=mesh, dp_mesh_dims=DataParallelMeshDims(shard="dp"))
print(f"rank {rank} with dp_mesh_dims: {layer.weight.placements},"
      f" local {list(layer.weight.to_local().shape)} of {list(layer.weight.shape)}")

# two layers of one model sharded on two different meshes over the same ranks
other = init_device_mesh(device_type, (2,), mesh_dim_names=("other",))
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 2)).to(device_type)
fully_shard(model[0], mesh=mesh)
fully_shard(model[2], mesh=other)
fully_shard(model, mesh=mesh)
model(torch.ones(2, 4, device=device_type)).sum().backward()  # forward and backward run
attempt("two meshes, clip_grad_norm_",
        lambda: nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0))

del layer, model, mesh, mesh_3d, mesh_unnamed, mesh_2d, other
gc.collect()  # FSDP's modules, hooks and graphs form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
