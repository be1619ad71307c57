"""get_optimizer_state_dict / set_optimizer_state_dict: the optimizer's state of a fully_shard
(FSDP2) model, keyed by parameter name (FQN) instead of by index, saved and loaded with DCP.

Run: torchrun --standalone --nproc-per-node=2 dcp_optimizer.py
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
from torch.distributed.checkpoint.state_dict import (
    StateDictOptions,
    get_model_state_dict,
    get_optimizer_state_dict,
    set_model_state_dict,
    set_optimizer_state_dict,
)
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


def make():
    torch.manual_seed(0)
    model = fully_shard(nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2)).to(device),
                        mesh=mesh)
    return model, torch.optim.Adam(model.parameters(), lr=0.1)


model, optimizer = make()
for step in range(3):
    torch.manual_seed(1 + step)
    optimizer.zero_grad()
    model(torch.randn(4, 4, device=device)).sum().backward()
    optimizer.step()

# flatten_optimizer_state_dict=True: one flat dict, "state.<fqn>.<name>" and
# "param_groups.<fqn>.<option>"; the same options must be given to the set_ call.
options = StateDictOptions(flatten_optimizer_state_dict=True)
osd = get_optimizer_state_dict(model, optimizer, options=options)
if rank == 0:
    print("state keys of 0.weight:", sorted(k for k in osd if k.startswith("state.0.weight.")))
    print("param_groups keys of 0.weight:",
          sorted(k.rpartition(".")[2] for k in osd if k.startswith("param_groups.0.weight.")))
print(f"rank {rank}: step {osd['state.0.weight.step'].item()},"
      f" exp_avg is a {type(osd['state.0.weight.exp_avg']).__name__}")

holder = [tempfile.mkdtemp() if rank == 0 else None]
dist.broadcast_object_list(holder, src=0)
ckpt = holder[0]
dcp.save({"model": get_model_state_dict(model), "optim": osd}, checkpoint_id=ckpt)

# A fresh run: its optimizer has no state yet. get_optimizer_state_dict creates it with one
# step() on zero gradients at lr 0, so its step count is already 1 before the load.
model2, optimizer2 = make()
state = {"model": get_model_state_dict(model2),
         "optim": get_optimizer_state_dict(model2, optimizer2, options=options)}
print(f"rank {rank}: fresh optimizer step {state['optim']['state.0.weight.step'].item()}")
dcp.load(state, checkpoint_id=ckpt)
set_model_state_dict(model2, state["model"])
set_optimizer_state_dict(model2, optimizer2, optim_state_dict=state["optim"], options=options)

# optimizer.state is keyed by the parameter (a DTensor): compare the local shards.
before = optimizer.state[model[0].weight]
after = optimizer2.state[model2[0].weight]
print(f"rank {rank}: after load step {after['step'].item()},"
      f" exp_avg equal {torch.equal(after['exp_avg'].to_local(), before['exp_avg'].to_local())},"
      f" exp_avg_sq equal"
      f" {torch.equal(after['exp_avg_sq'].to_local(), before['exp_avg_sq'].to_local())}")

dist.barrier()  # every rank has finished loading before the directory is deleted
if rank == 0:
    shutil.rmtree(ckpt)

# Drop everything that holds a DTensor (and so the mesh and its process group).
del model, optimizer, model2, optimizer2, mesh, osd, state, before, after
gc.collect()  # FSDP's modules, hooks and graphs form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
