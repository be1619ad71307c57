"""torch.distributed.checkpoint (DCP): every rank saves and loads only its own shards of a
fully_shard (FSDP2) model and its optimizer, in parallel, into one checkpoint directory.

Run: torchrun --standalone --nproc-per-node=2 dcp_save_load.py
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
from torch.distributed.checkpoint.state_dict import get_state_dict, set_state_dict
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


def make_model():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2)).to(device)
    fully_shard(model, mesh=mesh)  # each parameter becomes a DTensor sharded on dim 0
    return model, torch.optim.AdamW(model.parameters(), lr=0.1)


model, optimizer = make_model()
torch.manual_seed(1 + rank)
model(torch.randn(4, 4, device=device)).sum().backward()
optimizer.step()  # now the optimizer has state (exp_avg, exp_avg_sq) to save

# A directory every rank can reach: rank 0 creates it and sends its path to the others.
holder = [tempfile.mkdtemp() if rank == 0 else None]
dist.broadcast_object_list(holder, src=0)
ckpt = holder[0]

model_sd, optim_sd = get_state_dict(model, optimizer)  # sharded, with plain FQN keys
weight = model_sd["0.weight"]
print("saved 0.weight:", type(weight).__name__, tuple(weight.shape),
      "local shard", tuple(weight.to_local().shape))
dcp.save({"model": model_sd, "optim": optim_sd}, checkpoint_id=ckpt)  # collective
if rank == 0:
    print("files:", sorted(os.listdir(ckpt)))

# A fresh model and optimizer, e.g. after a restart: load in place, then apply.
model2, optimizer2 = make_model()
with torch.no_grad():  # wipe it, so that only the load can bring the values back
    for param in model2.parameters():
        param.zero_()
model_sd2, optim_sd2 = get_state_dict(model2, optimizer2)
state = {"model": model_sd2, "optim": optim_sd2}
dcp.load(state, checkpoint_id=ckpt)  # fills the tensors of `state` in place
set_state_dict(model2, optimizer2,
               model_state_dict=state["model"], optim_state_dict=state["optim"])

def local(t):
    return t.to_local() if hasattr(t, "to_local") else t


same_params = all(torch.equal(local(a), local(b))
                  for a, b in zip(model.parameters(), model2.parameters()))
optim_sd3 = get_state_dict(model2, optimizer2)[1]
same_state = all(torch.equal(local(optim_sd["state"][k][s]), local(optim_sd3["state"][k][s]))
                 for k in optim_sd["state"] for s in ("step", "exp_avg", "exp_avg_sq"))
print("parameters equal after load:", same_params)
print("optimizer state equal after load:", same_state)

dist.barrier()  # every rank has finished loading before the directory is deleted
if rank == 0:
    shutil.rmtree(ckpt)

# Drop everything that holds a DTensor (and so the mesh and its process group).
del model, optimizer, model2, optimizer2, mesh, param, weight
del model_sd, optim_sd, model_sd2, optim_sd2, state, optim_sd3
gc.collect()  # FSDP's modules, hooks and graphs form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
