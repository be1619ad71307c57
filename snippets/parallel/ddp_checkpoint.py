"""Save a DDP checkpoint on rank 0 only, wait with barrier(), then load it on every rank,
onto that rank's own device.

Run: torchrun --standalone --nproc-per-node=2 ddp_checkpoint.py
Variants: gloo-cpu, nccl-cuda, nccl-cuda-1
"""
import os
import shutil
import tempfile

import torch
import torch.distributed as dist
# Before init_process_group: imported later (as DDP and optimizers do), it keeps a reference
# to the default group, and destroy_process_group() cannot free it (torch 2.15).
import torch.distributed.nn  # noqa: F401
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
if os.environ.get("DEVICE", "cpu") == "cuda":
    device = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device)
else:
    device = torch.device("cpu")
# device_id tells barrier() which GPU to use (older releases reject a CPU device)
dist.init_process_group(backend, device_id=device if device.type == "cuda" else None)
rank = dist.get_rank()

torch.manual_seed(0)
model = DDP(nn.Linear(3, 1).to(device),
            device_ids=[device.index] if device.type == "cuda" else None)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
torch.manual_seed(1 + rank)
x, y = torch.randn(4, 3, device=device), torch.randn(4, 1, device=device)
nn.functional.mse_loss(model(x), y).backward()
optimizer.step()

# A directory every rank can reach: rank 0 creates it and sends its path to the others.
# (On several machines it must be on a shared file system.)
holder = [tempfile.mkdtemp() if rank == 0 else None]
dist.broadcast_object_list(holder, src=0)
path = os.path.join(holder[0], "checkpoint.pt")

if rank == 0:
    torch.save(model.module.state_dict(), path)  # one writer; .module: keys without "module."
dist.barrier()  # no rank reads before rank 0 has finished writing

# onto this rank's device, whatever it was saved from
state = torch.load(path, map_location=device)
print("loaded tensors on:", state["weight"].device)
restored = nn.Linear(3, 1).to(device)  # e.g. the model of a new run
print(restored.load_state_dict(state))
print("equal to the trained weights:", torch.equal(restored.weight, model.module.weight))

dist.barrier()  # every rank has read the file before it is deleted
if rank == 0:
    shutil.rmtree(holder[0])

del model, optimizer  # free DDP before tearing down the process group it uses
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
