"""DTensor factories: zeros, ones, empty, full, linspace, logspace build only the local shard.

Run: torchrun --standalone --nproc-per-node=2 dtensor_factories.py
Variants: gloo-cpu, nccl-cuda
"""
import gc
import os

import torch
import torch.distributed as dist
# Before init_process_group: imported later (as DTensor does), it keeps a reference
# to the default group, and destroy_process_group() cannot free it (torch 2.15).
import torch.distributed.nn  # noqa: F401
import torch.distributed.tensor as dt
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import Replicate, Shard

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
device_type = os.environ.get("DEVICE", "cpu")
device_id = None
if device_type == "cuda":
    device_id = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device_id)
dist.init_process_group(backend, device_id=device_id)
rank = dist.get_rank()

mesh = init_device_mesh(device_type, (2,))
made = {
    # size as separate ints or one sequence, as in torch.zeros
    "zeros": dt.zeros(4, 3, device_mesh=mesh, placements=[Shard(0)]),
    "ones": dt.ones((4, 3), device_mesh=mesh, placements=[Shard(1)]),
    "empty": dt.empty(4, 3, device_mesh=mesh, placements=[Shard(0)]),  # values not set
    "full": dt.full((2, 3), 7.0, device_mesh=mesh, placements=[Replicate()]),
    "zeros 5": dt.zeros(5, device_mesh=mesh, placements=[Shard(0)]),  # uneven split
    # linspace and logspace: one dimension, each rank computes its own part of the range
    "linspace": dt.linspace(0, 1, 6, device_mesh=mesh, placements=[Shard(0)]),
    "logspace": dt.logspace(0, 5, 6, device_mesh=mesh, placements=[Shard(0)]),
}
for name, t in made.items():
    line = (f"rank {rank} {name}: {t.placements}, global {list(t.shape)},"
            f" local {list(t.to_local().shape)}")
    if name != "empty":  # print no uninitialised memory
        line += f" {[round(v, 4) for v in t.to_local().flatten().tolist()]}"
    print(line)
gathered = made["linspace"].full_tensor()
print(f"rank {rank} linspace gathered: {[round(v, 4) for v in gathered.tolist()]}")
print(f"rank {rank} equals torch.linspace:"
      f" {torch.equal(gathered, torch.linspace(0, 1, 6, device=device_type))}")

del made, t, gathered, mesh
gc.collect()  # DTensors and their meshes can form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
