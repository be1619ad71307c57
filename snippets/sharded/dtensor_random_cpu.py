"""DTensor rand/randn on a CPU mesh: unsupported; distribute a seeded full tensor instead.

Run: torchrun --standalone --nproc-per-node=2 dtensor_random_cpu.py
Variants: gloo-cpu
"""
import gc
import warnings

import torch
import torch.distributed as dist
# Before init_process_group: imported later (as DTensor does), it keeps a reference
# to the default group, and destroy_process_group() cannot free it (torch 2.15).
import torch.distributed.nn  # noqa: F401
import torch.distributed.tensor as dt
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import Shard, distribute_tensor

dist.init_process_group("gloo")
rank = dist.get_rank()
mesh = init_device_mesh("cpu", (2,))

for factory in (dt.rand, dt.randn):
    torch.manual_seed(0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            factory(4, 2, device_mesh=mesh, placements=[Shard(0)])
            print(f"rank {rank} {factory.__name__}: created")
        except AssertionError as e:
            print(f"rank {rank} {factory.__name__} raised {type(e).__name__}({e})")
    for w in caught:
        print(f"rank {rank}   {w.category.__name__}: {w.message}")

# what works on CPU: the same seed on every rank, the full tensor, then shard it
torch.manual_seed(0)
full = torch.randn(4, 2)
x = distribute_tensor(full, mesh, [Shard(0)])  # rank 0's values, scattered
local = [round(v, 4) for v in x.to_local().flatten().tolist()]
print(f"rank {rank} local rows of randn(4, 2): {local}")
print(f"rank {rank} gathered equals the full tensor: {torch.equal(x.full_tensor(), full)}")

del x, mesh
gc.collect()  # DTensors and their meshes can form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
