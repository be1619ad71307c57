"""DTensor.redistribute: change placements; each change is one collective (or none).

Run: torchrun --standalone --nproc-per-node=2 dtensor_redistribute.py
Variants: gloo-cpu, nccl-cuda
"""
import logging
import os

import torch
import torch.distributed as dist
# Before init_process_group: imported later (as DTensor does), it keeps a reference
# to the default group, and destroy_process_group() cannot free it (torch 2.15).
import torch.distributed.nn  # noqa: F401
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import Replicate, Shard, distribute_tensor

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
device_type = os.environ.get("DEVICE", "cpu")
device_id = None
if device_type == "cuda":
    device_id = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device_id)
dist.init_process_group(backend, device_id=device_id)
rank = dist.get_rank()

notices = []


def to_stdout(record):
    """Keep DTensor's one-time notice for printing below, instead of on stderr."""
    notices.append(record.getMessage())
    return False


logging.getLogger("torch.distributed.tensor._collective_utils").addFilter(to_stdout)

mesh = init_device_mesh(device_type, (2,))
full = torch.arange(8.0, device=device_type).reshape(2, 4)
rows = distribute_tensor(full, mesh, [Shard(0)])
print(f"rank {rank} Shard(0) local: {rows.to_local().tolist()}")

steps = [
    ("Shard(0) -> Replicate()", rows, [Replicate()]),  # all-gather
    ("Shard(0) -> Shard(1)", rows, [Shard(1)]),  # all-to-all
    # no communication: each rank slices its part out of the replica
    ("Replicate() -> Shard(1)", rows.redistribute(mesh, [Replicate()]), [Shard(1)]),
]
for label, source, placements in steps:
    moved = source.redistribute(mesh, placements)  # a new DTensor; source is unchanged
    local = moved.to_local()
    print(f"rank {rank} {label}: local shape {list(local.shape)} {local.tolist()}")
    print(f"rank {rank}   same global values: {torch.equal(moved.full_tensor(), full)}")
print(f"rank {rank} notices logged: {notices}")

del mesh, rows, source, moved, steps
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
