"""get_state_dict / set_state_dict with StateDictOptions: gather a sharded (fully_shard)
model into one full state dict on rank 0 (for torch.save), and load a full state dict that
only rank 0 has by broadcasting it into the shards of every rank.

Run: torchrun --standalone --nproc-per-node=2 dcp_state_dict.py
Variants: gloo-cpu, nccl-cuda
Timeout: 120
"""
import gc
import os

import torch
import torch.distributed as dist
# Before init_process_group: imported later (as optimizers do), it keeps a reference
# to the default group, and destroy_process_group() cannot free it (torch 2.15).
import torch.distributed.nn  # noqa: F401
from torch import nn
from torch.distributed.checkpoint.state_dict import (
    StateDictOptions, get_model_state_dict, set_model_state_dict)
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard



backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
if os.environ.get("DEVICE", "cpu") == "cuda":
    device = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device)
else:
    device = torch.device("cpu")
dist.init_process_group(backend, device_id=device if device.type == "cuda" else None)
rank = dist.get_rank()
mesh = init_device_mesh(device.type, (dist.get_world_size(),))

torch.manual_seed(0)
model = fully_shard(nn.Sequential(nn.Linear(4, 6), nn.Linear(6, 2)).to(device), mesh=mesh)

# Default options: sharded DTensors, each rank holds its own rows.
sharded = get_model_state_dict(model)
print("default:", {k: type(v).__name__ for k, v in sharded.items()})

# full_state_dict gathers every tensor; with cpu_offload only rank 0 keeps the result
# (on CPU), the other ranks get an empty dict: no rank but 0 needs the memory.
full_opts = StateDictOptions(full_state_dict=True, cpu_offload=True)
full = get_model_state_dict(model, options=full_opts)
print("full, cpu_offload:", {k: tuple(v.shape) for k, v in full.items()})

# Loading the other way: only rank 0 has the full tensors (e.g. from torch.load);
# broadcast_from_rank0 sends them and every rank keeps its own shard.
torch.manual_seed(1)
model2 = fully_shard(nn.Sequential(nn.Linear(4, 6), nn.Linear(6, 2)).to(device), mesh=mesh)
def same_shards(a, b):
    return all(torch.equal(p.to_local(), q.to_local())
               for p, q in zip(a.parameters(), b.parameters()))


print("model2 shards equal model's before:", same_shards(model, model2))
load_opts = StateDictOptions(full_state_dict=True, broadcast_from_rank0=True)
set_model_state_dict(model2, full if rank == 0 else {}, options=load_opts)
print("model2 shards equal model's after broadcast:", same_shards(model, model2))

# Drop everything that holds a DTensor (and so the mesh and its process group).
del model, model2, mesh, sharded, full
gc.collect()  # FSDP's modules, hooks and graphs form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
