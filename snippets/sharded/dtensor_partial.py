"""Partial(): each rank holds an addend of the global value, reduced only on demand.

Run: torchrun --standalone --nproc-per-node=2 dtensor_partial.py
Variants: gloo-cpu, nccl-cuda
"""
import os

import torch
import torch.distributed as dist
# Before init_process_group: imported later (as DTensor does), it keeps a reference
# to the default group, and destroy_process_group() cannot free it (torch 2.15).
import torch.distributed.nn  # noqa: F401
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import (
    DTensor,
    Partial,
    Replicate,
    Shard,
    distribute_tensor,
)

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
device_type = os.environ.get("DEVICE", "cpu")
device_id = None
if device_type == "cuda":
    device_id = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device_id)
dist.init_process_group(backend, device_id=device_id)
rank = dist.get_rank()

mesh = init_device_mesh(device_type, (2,))

# wrap each rank's own tensor; Partial() says the global value is their sum
local = torch.tensor([1.0, 2.0], device=device_type) * (rank + 1)
partial = DTensor.from_local(local, mesh, [Partial()])
print(f"rank {rank} local {partial.to_local().tolist()}, {partial.placements}")
summed = partial.redistribute(mesh, [Replicate()])  # the all-reduce happens here
print(f"rank {rank} after redistribute to Replicate(): {summed.to_local().tolist()}")

# a matmul over a sharded inner dimension produces a Partial result by itself
a = distribute_tensor(torch.ones(2, 4, device=device_type), mesh, [Shard(1)])
b = distribute_tensor(torch.ones(4, 3, device=device_type), mesh, [Shard(0)])
c = a @ b
print(f"rank {rank} (Shard(1) @ Shard(0)).placements: {c.placements}")
print(f"rank {rank} local partial sums: {c.to_local().tolist()}")
print(f"rank {rank} full_tensor(): {c.full_tensor().tolist()}")

del mesh, partial, summed, a, b, c
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
