"""CommDebugMode: count the collectives that DTensor and tensor parallelism run.

Inside `with CommDebugMode() as comm:`, every collective the rank issues is counted:
get_comm_counts() maps each collective to its count, get_total_counts() adds them up, and
the tracing table breaks them down by module and by forward and backward. Here a
tensor-parallel MLP (one all-reduce in forward, one in backward), then DTensor
operations one at a time: a sum needs no communication until its result is read.

Run: torchrun --standalone --nproc-per-node=2 comm_debug_mode.py
Variants: gloo-cpu, nccl-cuda
"""
import gc
import os
import tempfile

import torch
import torch.distributed as dist
# Before init_process_group: imported later (as DTensor does), it keeps a reference
# to the default group, and destroy_process_group() cannot free it (torch 2.15).
import torch.distributed.nn  # noqa: F401
from torch import nn
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import Replicate, Shard, distribute_tensor
from torch.distributed.tensor.debug import CommDebugMode
from torch.distributed.tensor.parallel import (
    ColwiseParallel,
    RowwiseParallel,
    parallelize_module,
)

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
device_type = os.environ.get("DEVICE", "cpu")
device_id = None
if device_type == "cuda":
    device_id = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device_id)
dist.init_process_group(backend, device_id=device_id)
rank = dist.get_rank()
mesh = init_device_mesh(device_type, (2,), mesh_dim_names=("tp",))


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.up = nn.Linear(4, 8)
        self.down = nn.Linear(8, 4)

    def forward(self, x):
        return self.down(torch.relu(self.up(x)))


torch.manual_seed(0)
model = MLP().to(device_type)
parallelize_module(model, mesh, {"up": ColwiseParallel(), "down": RowwiseParallel()})
# as inside a network, the input's gradient is needed too
x = torch.randn(3, 4, device=device_type, requires_grad=True)

with CommDebugMode() as comm:
    model(x).sum().backward()
counts = {str(op): n for op, n in comm.get_comm_counts().items()}
print(f"rank {rank} MLP forward and backward: {counts}, total {comm.get_total_counts()}")
all_reduce = torch.ops.c10d_functional.all_reduce  # the keys are these op objects
print(f"rank {rank} all_reduce: {comm.get_comm_counts()[all_reduce]}")
if rank == 0:  # the table by module, without its terminal colours
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "comm.txt")
        comm.log_comm_debug_tracing_table_to_file(path, noise_level=0)
        print(open(path).read().rstrip())

w = distribute_tensor(torch.arange(16.0, device=device_type).reshape(4, 4), mesh, [Shard(0)])
with CommDebugMode() as comm:
    total = w.sum()  # each rank sums its rows: a Partial result, no collective
    print(f"rank {rank} w.sum(): {total.placements}, collectives so far"
          f" {comm.get_total_counts()}")
    value = total.full_tensor()  # reading it: the partial sums are all-reduced
    print(f"rank {rank} full_tensor() = {value.item()}, collectives so far"
          f" {comm.get_total_counts()}")
    full = w.redistribute(mesh, [Replicate()])  # Shard(0) -> Replicate(): all-gather
counts = {str(op): n for op, n in comm.get_comm_counts().items()}
print(f"rank {rank} DTensor steps: {counts}")

del model, x, w, total, full, mesh
gc.collect()  # modules, hooks and graphs can form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
