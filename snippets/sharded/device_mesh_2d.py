"""init_device_mesh: four ranks arranged as a 2 x 2 mesh with named dimensions.

Run: torchrun --standalone --nproc-per-node=4 device_mesh_2d.py
Variants: gloo-cpu, nccl-cuda
GPUs: 4
"""
import os

import torch
import torch.distributed as dist
# Before init_process_group: imported later (as DeviceMesh does), it keeps a reference
# to the default group, and destroy_process_group() cannot free it (torch 2.15).
import torch.distributed.nn  # noqa: F401
from torch.distributed.device_mesh import init_device_mesh

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
device_type = os.environ.get("DEVICE", "cpu")
device_id = None
if device_type == "cuda":
    device_id = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device_id)
dist.init_process_group(backend, device_id=device_id)
rank = dist.get_rank()

# ranks [[0, 1], [2, 3]]: a row is one "tp" group, a column one "dp" group
mesh = init_device_mesh(device_type, (2, 2), mesh_dim_names=("dp", "tp"))
if rank == 0:
    print(f"mesh: {mesh.mesh.tolist()}, names {mesh.mesh_dim_names}")
    # size() counts every rank, size(dim) one dimension; ndim and shape as for a tensor
    print(f"size {mesh.size()}, size(0) {mesh.size(0)}, ndim {mesh.ndim}, shape "
          f"{tuple(mesh.shape)}")
print(f"rank {rank} get_rank: {mesh.get_rank()}")  # the global rank, as dist.get_rank()
# one process group per mesh dimension, in dimension order
print(f"rank {rank} get_all_groups: "
      f"{[dist.get_process_group_ranks(g) for g in mesh.get_all_groups()]}")
print(f"rank {rank} coordinate (dp, tp): {mesh.get_coordinate()}")
for name in ("dp", "tp"):
    sub = mesh[name]  # a 1-D mesh: the ranks that share this rank's other coordinate
    group = sub.get_group()  # the process group behind that mesh dimension
    print(
        f"rank {rank} mesh[{name!r}]: ranks {sub.mesh.tolist()},"
        f" local rank {mesh.get_local_rank(name)},"
        f" group ranks {dist.get_process_group_ranks(group)}"
    )

# a collective over one mesh dimension only involves that dimension's group
value = torch.tensor([float(rank)], device=device_type)
dist.all_reduce(value, group=mesh.get_group("tp"))
print(f"rank {rank} sum of ranks over 'tp': {value.item():.0f}")

del mesh, sub, group  # drop every handle to the mesh's groups first
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
