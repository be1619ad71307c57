"""DTensor on a 2 x 2 mesh: one placement per mesh dimension.

Run: torchrun --standalone --nproc-per-node=4 dtensor_2d.py
Variants: gloo-cpu, nccl-cuda
GPUs: 4
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

mesh = init_device_mesh(device_type, (2, 2), mesh_dim_names=("dp", "tp"))
full = torch.arange(16.0, device=device_type).reshape(4, 4)
print(f"rank {rank} coordinate (dp, tp): {mesh.get_coordinate()}")

for placements in (
    [Shard(0), Shard(1)],  # rows split over "dp", columns over "tp": a 2 x 2 block each
    [Replicate(), Shard(0)],  # rows split over "tp", copied over "dp"
    [Shard(0), Shard(0)],  # rows split over "dp", then each half again over "tp"
):
    local = distribute_tensor(full, mesh, placements).to_local()
    print(f"rank {rank} {placements}: local {local.tolist()}")

del mesh  # drop every handle to the mesh's groups first
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
