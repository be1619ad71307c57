"""DCP resharding: a checkpoint saved by 4 ranks loads on 2. The checkpoint records each
tensor's global shape and which piece every file holds, so the loaders read the pieces they
need, whatever the sharding was when it was saved.

Run: torchrun --standalone --nproc-per-node=4 dcp_reshard.py
Variants: gloo-cpu, nccl-cuda
Timeout: 120
"""
import gc
import os
import shutil
import tempfile

import torch
import torch.distributed as dist
# Before init_process_group: imported later (as optimizers do), it keeps a reference
# to the default group, and destroy_process_group() cannot free it (torch 2.15).
import torch.distributed.nn  # noqa: F401
import torch.distributed.checkpoint as dcp
from torch import nn
from torch.distributed.checkpoint.state_dict import get_model_state_dict, set_model_state_dict
from torch.distributed.device_mesh import DeviceMesh, init_device_mesh
from torch.distributed.fsdp import fully_shard



backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
if os.environ.get("DEVICE", "cpu") == "cuda":
    device = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device)
else:
    device = torch.device("cpu")
dist.init_process_group(backend, device_id=device if device.type == "cuda" else None)
rank = dist.get_rank()


def make_model(mesh):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 4)).to(device)
    return fully_shard(model, mesh=mesh)


holder = [tempfile.mkdtemp() if rank == 0 else None]
dist.broadcast_object_list(holder, src=0)
ckpt = holder[0]

# Phase 1: all 4 ranks train one step and save. 0.weight (8 x 4) is split in 4 rows of 2.
model = make_model(init_device_mesh(device.type, (4,)))
torch.manual_seed(1 + rank)
model(torch.randn(2, 4, device=device)).sum().backward()
torch.optim.SGD(model.parameters(), lr=0.1).step()
saved = get_model_state_dict(model)
print("saved by 4 ranks, local 0.weight:", tuple(saved["0.weight"].to_local().shape))
dcp.save(saved, checkpoint_id=ckpt)
# Every rank keeps the full trained tensors, to compare with what phase 2 loads.
full = {k: v.full_tensor() for k, v in saved.items()}

# Phase 2: a job of 2 ranks (here ranks 0 and 1 of this one) loads the same checkpoint.
group = dist.new_group([0, 1])  # every rank calls new_group, members or not
if rank in (0, 1):
    mesh2 = DeviceMesh.from_group(group, device.type)
    model2 = make_model(mesh2)  # 0.weight now split in 2 rows of 4
    state = get_model_state_dict(model2)
    before = all(torch.equal(state[k].full_tensor(), full[k]) for k in full)
    print("before loading, equal to the saved tensors:", before)
    dcp.load(state, checkpoint_id=ckpt, process_group=group)
    set_model_state_dict(model2, state)
    loaded = get_model_state_dict(model2)
    print("loaded by 2 ranks, local 0.weight:", tuple(loaded["0.weight"].to_local().shape))
    same = all(torch.equal(loaded[k].full_tensor(), full[k]) for k in full)
    print("every tensor equals the saved one:", same)
    del model2, mesh2, state, loaded
else:
    print("not in the 2-rank job")

dist.barrier()  # the loaders have finished before the directory is deleted
if rank == 0:
    shutil.rmtree(ckpt)

# Drop everything that holds a DTensor (and so a mesh and its process group).
del model, saved, group
gc.collect()  # FSDP's modules, hooks and graphs form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
