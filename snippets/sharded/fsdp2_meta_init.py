"""fully_shard on the meta device: build without storage, shard, allocate only the shards.

The model is built under torch.device("meta") (shapes and dtypes, no storage), sharded
block by block and then at the root, and given storage with to_empty(): each rank
allocates its shards only, with undefined values. Filling them: reset_parameters() on a
CPU mesh warns and gives every rank the same random rows (DTensor's random ops support
only CUDA-like devices in torch 2.15); a seed checkpoint loaded with DCP, of which each
rank reads only its shards, gives exactly the model built eagerly with the same seed.

Run: torchrun --standalone --nproc-per-node=2 fsdp2_meta_init.py
Variants: gloo-cpu, nccl-cuda
Timeout: 120
"""
import gc
import os
import shutil
import tempfile
import warnings

import torch
import torch.distributed as dist
# Before init_process_group: imported later (as optimizers do), it keeps a reference
# to the default group, and destroy_process_group() cannot free it (torch 2.15).
import torch.distributed.nn  # noqa: F401
import torch.distributed.checkpoint as dcp
from torch import nn
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard
from torch.distributed.tensor import DTensor

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
if os.environ.get("DEVICE", "cpu") == "cuda":
    device = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device)
else:
    device = torch.device("cpu")
dist.init_process_group(backend, device_id=device if device.type == "cuda" else None)
rank, world = dist.get_rank(), dist.get_world_size()
mesh = init_device_mesh(device.type, (world,))


def build():
    return nn.Sequential(nn.Linear(4, 6), nn.BatchNorm1d(6), nn.ReLU(), nn.Linear(6, 2))


with torch.device("meta"):  # no storage: any size builds at once
    model = build()
for block in (model[0], model[1], model[3]):
    fully_shard(block, mesh=mesh)
fully_shard(model, mesh=mesh)
weight = model[0].weight
print(f"rank {rank} after fully_shard: 0.weight on {weight.device.type},"
      f" local {list(weight.to_local().shape)} of {list(weight.shape)}")

model.to_empty(device=device)  # storage for the local shards (and the buffers) only
for name, param in model.named_parameters():
    print(f"rank {rank} {name}: local {list(param.to_local().shape)} of {list(param.shape)}"
          f" on {param.to_local().device.type}")
stored = sum(param.to_local().numel() for param in model.parameters())
total = sum(param.numel() for param in model.parameters())
print(f"rank {rank} parameter elements stored here: {stored} of {total}")
buffers = [f"{name} {list(buf.shape)}" for name, buf in model.named_buffers()]
print(f"rank {rank} buffers (not sharded, values undefined): {buffers}")

# 1. reset_parameters() on the sharded model: DTensor's random ops
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    torch.manual_seed(0)
    for module in model.modules():
        if hasattr(module, "reset_parameters"):
            module.reset_parameters()  # BatchNorm's resets its buffers too
print(f"rank {rank} reset_parameters() warned: {sorted({str(w.message) for w in caught})}")
rows = model[0].weight.full_tensor().chunk(world)
print(f"rank {rank} every rank drew the same rows: {all(torch.equal(r, rows[0]) for r in rows)}")

torch.manual_seed(0)
reference = build().to(device)  # built eagerly with the same seed: for the checks


def equal_to_reference():
    mine = list(model.parameters()) + list(model.buffers())
    return all(torch.equal(a.full_tensor() if isinstance(a, DTensor) else a, b)
               for a, b in zip(mine, list(reference.parameters()) + list(reference.buffers())))


print(f"rank {rank} equal to the eager model: {equal_to_reference()}")

# 2. A seed checkpoint of the eager model, loaded into the shards. In a real job one
# process without a process group writes it before training; here every rank has the
# reference already, and dcp.save writes each tensor once.
holder = [tempfile.mkdtemp() if rank == 0 else None]
dist.broadcast_object_list(holder, src=0)
ckpt = holder[0]
dcp.save(reference.state_dict(), checkpoint_id=ckpt)  # collective
state = model.state_dict()  # the model's own DTensor shards and buffers
dcp.load(state, checkpoint_id=ckpt)  # in place: each rank reads only its shards
print(f"rank {rank} after dcp.load: equal to the eager model: {equal_to_reference()}")

dist.barrier()  # every rank has loaded before the directory is deleted
if rank == 0:
    shutil.rmtree(ckpt)
del model, reference, state, weight, rows, param, block, module, mesh
gc.collect()  # FSDP's modules, hooks and graphs form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
