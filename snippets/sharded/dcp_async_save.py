"""dcp.async_save: copy the state dict to CPU memory, return at once, and write the files in a
background thread while training goes on. Wait for the previous save before the next one.

Run: torchrun --standalone --nproc-per-node=2 dcp_async_save.py
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
from torch.distributed.checkpoint.state_dict import get_model_state_dict
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard

if os.environ.get("DEVICE", "cpu") == "cuda":
    device = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device)
else:
    device = torch.device("cpu")


backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
dist.init_process_group(backend, device_id=device if device.type == "cuda" else None)
rank = dist.get_rank()
# async_save's background thread runs collectives (on CPU tensors) while training runs its
# own: give it a group of its own, on gloo, so that the two never mix on one connection.
ckpt_group = dist.new_group(backend="gloo")
mesh = init_device_mesh(device.type, (dist.get_world_size(),))

torch.manual_seed(0)
model = fully_shard(nn.Sequential(nn.Linear(4, 8), nn.Linear(8, 2)).to(device), mesh=mesh)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

holder = [tempfile.mkdtemp() if rank == 0 else None]
dist.broadcast_object_list(holder, src=0)
root = holder[0]

pending = None
for step in range(3):
    torch.manual_seed(10 * step + rank)
    optimizer.zero_grad()
    model(torch.randn(4, 4, device=device)).sum().backward()
    optimizer.step()
    if pending is not None:
        pending.result()  # the previous save has finished writing (or raises its error)
    sd = get_model_state_dict(model)
    pending = dcp.async_save(sd, checkpoint_id=os.path.join(root, f"step{step}"),
                               process_group=ckpt_group)
    print(f"step {step}: save started, returned a", type(pending).__name__)
pending.result()
if rank == 0:
    print("checkpoints:", sorted(os.listdir(root)))

# The last checkpoint holds the weights of the last step.
state = get_model_state_dict(model)
expected = {k: v.full_tensor() for k, v in state.items()}
for v in state.values():
    v.to_local().zero_()  # the DTensors of `state` are the model's parameters
print("after zeroing, equal to the trained weights:",
      all(torch.equal(state[k].full_tensor(), expected[k]) for k in expected))
dcp.load(state, checkpoint_id=os.path.join(root, "step2"))
print("step2 equals the trained weights:",
      all(torch.equal(state[k].full_tensor(), expected[k]) for k in expected))

dist.barrier()  # every rank has finished loading before the directory is deleted
if rank == 0:
    shutil.rmtree(root)

# Drop everything that holds a DTensor (and so the mesh and its process group).
del model, optimizer, mesh, sd, state, v, pending, ckpt_group
gc.collect()  # FSDP's modules, hooks and graphs form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
