"""fully_shard(reshard_after_forward=True, False or 2): what each rank holds between forward and
backward.

Run: torchrun --standalone --nproc-per-node=4 fsdp2_reshard_int.py
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
from torch.distributed.fsdp import fully_shard
from torch.distributed.tensor import DTensor

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
device_type = os.environ.get("DEVICE", "cpu")
device_id = None
if device_type == "cuda":
    device_id = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device_id)
dist.init_process_group(backend, device_id=device_id)
rank = dist.get_rank()

mesh = init_device_mesh(device_type, (4,))


def describe(param):
    if not isinstance(param, DTensor):
        return f"{type(param).__name__} {list(param.shape)}"
    return (f"DTensor {list(param.shape)} on mesh {param.device_mesh.mesh.tolist()},"
            f" {param.placements}, local {list(param.to_local().shape)}")


for reshard in (True, False, 2):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2)).to(device_type)
    fully_shard(model[0], mesh=mesh, reshard_after_forward=reshard)
    fully_shard(model[2], mesh=mesh, reshard_after_forward=reshard)
    fully_shard(model, mesh=mesh)
    loss = model(torch.ones(2, 4, device=device_type)).sum()
    print(f"rank {rank} reshard_after_forward={reshard}: {describe(model[0].weight)}")
    loss.backward()
    if reshard == 2:
        print(f"rank {rank} after backward: {describe(model[0].weight)}")
    del model, loss

del mesh
gc.collect()  # FSDP's modules, hooks and graphs form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
