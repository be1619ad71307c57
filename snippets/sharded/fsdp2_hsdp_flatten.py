"""Flattened dimensions: FSDP2 shards over data parallel x context parallel as one dimension,
by two public routes: dp_mesh_dims with a tuple of names (fully_shard flattens them), and a
second mesh whose one dimension spans the same ranks. Gradients compared with one process.

Run: torchrun --standalone --nproc-per-node=4 fsdp2_hsdp_flatten.py
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
from torch.distributed.fsdp import DataParallelMeshDims, fully_shard
from torch.distributed.tensor import DTensor, Shard, distribute_module

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
device_type = os.environ.get("DEVICE", "cpu")
device_id = None
if device_type == "cuda":
    device_id = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device_id)
dist.init_process_group(backend, device_id=device_id)
rank = dist.get_rank()
mesh = init_device_mesh(device_type, (2, 2), mesh_dim_names=("dp_shard", "cp"))
dp = mesh.get_local_rank("dp_shard")  # which half of the batch
cp = mesh.get_local_rank("cp")  # which half of the sequence

torch.manual_seed(1)  # one batch: 4 sequences of 6 tokens
x = torch.randn(4, 6, 8, device=device_type)
y = torch.randn(4, 6, 8, device=device_type)
local = [t[2 * dp:2 * dp + 2, 3 * cp:3 * cp + 3] for t in (x, y)]  # this rank's block


def check(label, model, reference, inputs):
    weight = model[0].weight
    print(f"rank {rank} {label}: 0.weight {weight.placements} on"
          f" {weight.device_mesh.mesh_dim_names}, local {list(weight.to_local().shape)}")
    loss = nn.functional.mse_loss(model(inputs[0]), inputs[1])
    loss.backward()
    nn.functional.mse_loss(reference(x), y).backward()  # one process, whole batch
    same = all(torch.allclose(p.grad.full_tensor(), r.grad, atol=1e-6)
               for p, r in zip(model.parameters(), reference.parameters()))
    print(f"rank {rank} {label}: gradients equal to one process's {same}")


# Route 1: the parameters are replicated DTensors on the whole mesh; fully_shard gets the
# whole mesh and flattens ("dp_shard", "cp") into one dimension itself.
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 8)).to(device_type)
reference = copy.deepcopy(model)
distribute_module(model, mesh)  # every parameter Replicate() on both dimensions
fully_shard(model, mesh=mesh, dp_mesh_dims=DataParallelMeshDims(shard=("dp_shard", "cp")))
# the inputs are DTensors too: the batch split over "dp_shard", the sequence over "cp"
inputs = [DTensor.from_local(t, mesh, [Shard(0), Shard(1)], run_check=False) for t in local]
check("dp_mesh_dims", model, reference, inputs)

# Route 2: plain parameters and inputs, and a 1-D mesh over the same ranks, in the same
# order: adjacent trailing dimensions of a mesh merge in rank order.
flat_mesh = init_device_mesh(device_type, (4,), mesh_dim_names=("dp_shard_cp",))
print(f"rank {rank} coordinate {mesh.get_coordinate()}, in the 1-D mesh "
      f"{flat_mesh.get_coordinate()}")
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 8)).to(device_type)
reference = copy.deepcopy(model)
fully_shard(model, mesh=flat_mesh)
check("1-D mesh", model, reference, local)

del model, inputs, mesh, flat_mesh
gc.collect()  # FSDP's modules, hooks and graphs form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
