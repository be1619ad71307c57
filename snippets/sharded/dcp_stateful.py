"""DCP with a Stateful object: put an object with state_dict() and load_state_dict() in the
dict given to dcp.save / dcp.load, and DCP calls them itself. One such "app state" can hold
the model, the optimizer and plain values such as the step, saved and restored together.

Run: torchrun --standalone --nproc-per-node=2 dcp_stateful.py
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
from torch.distributed.checkpoint.stateful import Stateful
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard



class AppState(Stateful):
    """What a training run needs to resume: model, optimizer and the step counter."""

    def __init__(self, model, optimizer, step=0):
        self.model, self.optimizer, self.step = model, optimizer, step

    def state_dict(self):  # called by dcp.save, and by dcp.load to get the tensors to fill
        model_sd, optim_sd = get_state_dict(self.model, self.optimizer)
        return {"model": model_sd, "optim": optim_sd, "step": self.step}

    def load_state_dict(self, state_dict):  # called by dcp.load with the loaded values
        set_state_dict(self.model, self.optimizer, model_state_dict=state_dict["model"],
                       optim_state_dict=state_dict["optim"])
        self.step = state_dict["step"]


backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
if os.environ.get("DEVICE", "cpu") == "cuda":
    device = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device)
else:
    device = torch.device("cpu")
dist.init_process_group(backend, device_id=device if device.type == "cuda" else None)
rank = dist.get_rank()
mesh = init_device_mesh(device.type, (dist.get_world_size(),))


def make_state():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 8), nn.Linear(8, 1)).to(device)
    fully_shard(model, mesh=mesh)
    return AppState(model, torch.optim.Adam(model.parameters(), lr=0.1))


holder = [tempfile.mkdtemp() if rank == 0 else None]
dist.broadcast_object_list(holder, src=0)
ckpt = holder[0]

app = make_state()
torch.manual_seed(1 + rank)
x, y = torch.randn(8, 4, device=device), torch.randn(8, 1, device=device)
for app.step in range(1, 4):
    app.optimizer.zero_grad()
    nn.functional.mse_loss(app.model(x), y).backward()
    app.optimizer.step()
dcp.save({"app": app}, checkpoint_id=ckpt)
print("saved at step", app.step)



def report(when, state):
    with torch.no_grad():
        same = torch.equal(app.model(x), state.model(x))
    print(f"{when}: step {state.step}, same predictions as the saved model: {same}")


resumed = make_state()  # a new run: fresh model and optimizer, step 0
report("before load", resumed)
dcp.load({"app": resumed}, checkpoint_id=ckpt)  # calls resumed.load_state_dict(...)
report("after load", resumed)

dist.barrier()  # every rank has finished loading before the directory is deleted
if rank == 0:
    shutil.rmtree(ckpt)

# Drop everything that holds a DTensor (and so the mesh and its process group).
del app, resumed, mesh
gc.collect()  # FSDP's modules, hooks and graphs form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
