"""visualize_sharding: which rank holds which block of a DTensor, and what it needs.

visualize_sharding(dtensor) prints, on the rank at coordinate 0 of every mesh dimension
only, a table of the blocks of a 1-D or 2-D DTensor and the ranks holding each. It draws
the table with the tabulate package (or rich and matplotlib with use_rich=True), which
torch does not install: without them it raises ValueError, on that one rank. Each rank
can always show its own block: distribute a tensor whose values are their own flat
indices and print the local shard.

Run: torchrun --standalone --nproc-per-node=2 visualize_sharding.py
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
from torch.distributed.tensor.debug import visualize_sharding

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
device_type = os.environ.get("DEVICE", "cpu")
device_id = None
if device_type == "cuda":
    device_id = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device_id)
dist.init_process_group(backend, device_id=device_id)
rank = dist.get_rank()
mesh = init_device_mesh(device_type, (2,))

# each element's value is its own flat index: a shard shows where it comes from
indices = torch.arange(16, device=device_type).reshape(4, 4)
for placement in (Shard(0), Shard(1), Replicate()):
    dtensor = distribute_tensor(indices, mesh, [placement])
    try:
        visualize_sharding(dtensor)  # a table on rank 0, nothing on the others
        print(f"rank {rank} {placement!r}: visualize_sharding returned")
    except ValueError as error:  # neither tabulate nor rich is installed
        print(f"rank {rank} {placement!r}: visualize_sharding raised {error!r}")
    print(f"rank {rank} {placement!r}: local {dtensor.to_local().tolist()}")

del dtensor, mesh
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
