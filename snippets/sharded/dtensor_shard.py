"""distribute_tensor: one tensor, split or copied across a mesh; to_local() per rank.

Run: torchrun --standalone --nproc-per-node=2 dtensor_shard.py
Variants: gloo-cpu, nccl-cuda
"""
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

mesh = init_device_mesh(device_type, (2,))
full = torch.arange(12.0, device=device_type).reshape(4, 3)  # rows 0..3, columns 0..2

for placement in (Shard(0), Shard(1), Replicate()):
    # rank 0's tensor is the source (src_data_rank=0); the others' are not read
    dtensor = distribute_tensor(full, mesh, [placement])
    local = dtensor.to_local()  # this rank's piece, a plain torch.Tensor
    print(f"rank {rank} {placement!r}: global shape {list(dtensor.shape)},"
          f" local shape {list(local.shape)}")
    print(f"rank {rank}   local {local.tolist()}")
    # full_tensor() gathers the pieces back: the same tensor on every rank
    same = torch.equal(dtensor.full_tensor(), full)
    print(f"rank {rank}   full_tensor() == full: {same}")

# src_data_rank is a position in the mesh dimension; None: no scatter, each rank cuts
# its own piece out of its own tensor
own = full + 100 * rank  # different data on each rank
for src in (0, None):
    piece = distribute_tensor(own, mesh, [Shard(0)], src_data_rank=src).to_local()
    print(f"rank {rank} src_data_rank={src}: local {piece.tolist()}")

del mesh, dtensor
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
