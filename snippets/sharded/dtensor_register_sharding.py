"""register_sharding: tell DTensor which placements a custom operator accepts and produces.

Run: torchrun --standalone --nproc-per-node=2 dtensor_register_sharding.py
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
from torch.distributed.tensor.debug import CommDebugMode
from torch.distributed.tensor.experimental import register_sharding

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
device_type = os.environ.get("DEVICE", "cpu")
device_id = None
if device_type == "cuda":
    device_id = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device_id)
dist.init_process_group(backend, device_id=device_id)
rank = dist.get_rank()
mesh = init_device_mesh(device_type, (2,))


@torch.library.custom_op("demo::normalize_rows", mutates_args=())
def normalize_rows(x: torch.Tensor) -> torch.Tensor:
    return x / x.abs().sum(dim=-1, keepdim=True)


@normalize_rows.register_fake
def _(x):  # DTensor needs it: it computes the output's shape on fake tensors
    return torch.empty_like(x)


full = torch.arange(1.0, 13.0, device=device_type).view(4, 3)
rows = distribute_tensor(full, mesh, [Shard(0)])
try:
    normalize_rows(rows)
except NotImplementedError as error:
    print(f"rank {rank} NotImplementedError: {error}")


@register_sharding(torch.ops.demo.normalize_rows.default)
def normalize_rows_sharding(x):
    # (output placements, input placements) pairs; any dim but the last may be sharded
    strategies = [([Replicate()], [Replicate()])]
    for dim in range(x.ndim - 1):
        strategies.append(([Shard(dim)], [Shard(dim)]))
    return strategies


columns = distribute_tensor(full, mesh, [Shard(1)])
for name, x in (("Shard(0) input", rows), ("Shard(1) input", columns)):
    with CommDebugMode() as comm:
        out = normalize_rows(x)
    collectives = {str(op).split(".")[-1]: n for op, n in comm.get_comm_counts().items()}
    print(f"rank {rank} {name}: output {out.placements}, collectives {collectives},"
          f" right: {torch.allclose(out.full_tensor(), normalize_rows(full))}")

del mesh
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
