"""DP x TP on a 2 x 2 mesh with fully_shard(dp_mesh_dims=...): the tensor-parallel weights are
DTensors on the whole mesh; replicate="dp" makes FSDP2 a DDP over the "dp" dimension,
shard="dp" an FSDP. Three training steps, compared step by step with one process.

Run: torchrun --standalone --nproc-per-node=4 dp_tp_replicate.py
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
from torch.distributed.tensor import (
    DTensor,
    Replicate,
    Shard,
    distribute_module,
    distribute_tensor,
)
from torch.distributed.tensor.parallel import (
    ColwiseParallel,
    RowwiseParallel,
    parallelize_module,
)

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
device_type = os.environ.get("DEVICE", "cpu")
device_id = None
if device_type == "cuda":
    device_id = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device_id)
dist.init_process_group(backend, device_id=device_id)
rank = dist.get_rank()
mesh = init_device_mesh(device_type, (2, 2), mesh_dim_names=("dp", "tp"))
dp = mesh.get_local_rank("dp")


def tensor_parallel(name, module, mesh):
    """Column-wise first layer, row-wise second, as placements on the whole (dp, tp) mesh."""
    if not isinstance(module, nn.Linear):
        return
    for param_name, param in list(module.named_parameters(recurse=False)):
        if name == "0":  # weight rows and bias split over "tp"
            placements = [Replicate(), Shard(0)]
        elif param_name == "weight":  # weight columns split over "tp"
            placements = [Replicate(), Shard(1)]
        else:
            placements = [Replicate(), Replicate()]
        dtensor = distribute_tensor(param.detach(), mesh, placements)
        module.register_parameter(param_name, nn.Parameter(dtensor))


def train(label, dims):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 4)).to(device_type)
    reference = copy.deepcopy(model)  # one process, whole batch
    distribute_module(model, mesh, tensor_parallel)
    fully_shard(model, mesh=mesh, dp_mesh_dims=dims)
    weight = model[0].weight
    print(f"rank {rank} {label}: 0.weight {weight.placements},"
          f" local {list(weight.to_local().shape)} of {list(weight.shape)}")
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    ref_optimizer = torch.optim.SGD(reference.parameters(), lr=0.1)
    for step in range(3):
        torch.manual_seed(100 + step)  # the same batch on every rank
        x = torch.randn(8, 4, device=device_type)
        y = torch.randn(8, 4, device=device_type)
        half = slice(4 * dp, 4 * dp + 4)  # each "dp" row of the mesh takes half of it
        # Declare what the local half is: a shard of the batch over "dp", whole over "tp".
        inputs = [DTensor.from_local(t[half], mesh, [Shard(0), Replicate()], run_check=False)
                  for t in (x, y)]
        loss = nn.functional.mse_loss(model(inputs[0]), inputs[1])
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        # the loss is partial over "tp" (each rank holds a slice of the output): reduce
        # over "tp" only, to get the loss of this rank's half of the batch
        local = loss.redistribute(mesh, [loss.placements[0], Replicate()]).to_local()
        with torch.no_grad():
            expected = nn.functional.mse_loss(reference(x[half]), y[half])
        nn.functional.mse_loss(reference(x), y).backward()
        ref_optimizer.step()
        ref_optimizer.zero_grad()
        print(f"rank {rank} {label}: step {step} loss {local.item():.6f}"
              f" reference {expected.item():.6f} equal {torch.allclose(local, expected)}")


print(f"rank {rank} coordinate (dp, tp): {mesh.get_coordinate()}")
# parallelize_module places the weights on the "tp" submesh, not on the whole mesh
tp_model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 4)).to(device_type)
parallelize_module(tp_model, mesh["tp"], {"0": ColwiseParallel(), "2": RowwiseParallel()})
for what, module in (("parallelize_module on mesh['tp']", tp_model),
                     ("plain parameters", nn.Linear(4, 4).to(device_type))):
    try:
        fully_shard(module, mesh=mesh, dp_mesh_dims=DataParallelMeshDims(replicate="dp"))
    except ValueError as error:  # printed on purpose
        print(f"rank {rank} {what}: ValueError: {error}")
train("replicate", DataParallelMeshDims(replicate="dp"))
train("shard", DataParallelMeshDims(shard="dp"))

del mesh, tp_model, module
gc.collect()  # FSDP's modules, hooks and graphs form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
