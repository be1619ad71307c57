"""init_device_mesh: a 1-D mesh over all ranks, its group, and a shape that won't fit.

Run: torchrun --standalone --nproc-per-node=2 device_mesh_1d.py
Variants: gloo-cpu, nccl-cuda
"""
import os

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
device_type = os.environ.get("DEVICE", "cpu")
device_id = None
if device_type == "cuda":
    device_id = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device_id)
dist.init_process_group(backend, device_id=device_id)
rank = dist.get_rank()

mesh = init_device_mesh(device_type, (2,), mesh_dim_names=("dp",))
print(f"rank {rank} mesh {mesh.mesh.tolist()}, {mesh.device_type!r}, ndim {mesh.ndim}")
print(f"rank {rank} local rank in 'dp': {mesh.get_local_rank()}")
group = mesh.get_group()  # a 1-D mesh needs no dimension name
print(f"rank {rank} group is the default group: {group == dist.group.WORLD}")

# a mesh may not have more positions than there are ranks
try:
    init_device_mesh(device_type, (3,))
except Exception as exc:  # noqa: BLE001 - printed on purpose
    print(f"rank {rank} mesh_shape (3,): {type(exc).__name__}: {exc}")

del mesh, group  # drop every handle to the mesh's groups first
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
