"""Resume a DDP run exactly: model, optimizer, epoch and GradScaler state,
saved by rank 0 and loaded by every rank.

The run uses float16 autocast with a GradScaler, on the CPU as on GPUs; with bfloat16 there
would be no scaler, and no scaler state to save.

Run: torchrun --standalone --nproc-per-node=2 ddp_resume.py
Variants: gloo-cpu, nccl-cuda
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
amp_dtype = torch.float16  # the dtype that needs a GradScaler (bfloat16 needs none)


def build():
    """Model, optimizer and loss scaler as a fresh run creates them."""
    torch.manual_seed(0)
    device_ids = [device.index] if device.type == "cuda" else None
    model = DDP(nn.Linear(3, 1).to(device), device_ids=device_ids)
    # momentum: state to keep
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    # the scale starts at 1024 and doubles after every 2 steps without inf/NaN gradients
    scaler = torch.amp.GradScaler(device.type, init_scale=1024, growth_interval=2)
    return model, optimizer, scaler


def train_epoch(model, optimizer, scaler, epoch):
    torch.manual_seed(100 * epoch + rank)  # this epoch's batches on this rank
    for _ in range(2):
        x, y = torch.randn(4, 3, device=device), torch.randn(4, 1, device=device)
        with torch.autocast(device.type, dtype=amp_dtype):
            loss = nn.functional.mse_loss(model(x), y)
        optimizer.zero_grad()
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()


# rank 0 makes the directory, all ranks learn its path
holder = [tempfile.mkdtemp() if rank == 0 else None]
dist.broadcast_object_list(holder, src=0)
path = os.path.join(holder[0], "checkpoint.pt")

# First run: epochs 0 and 1, a checkpoint, then on to epoch 3 without stopping (the reference).
model, optimizer, scaler = build()
for epoch in range(2):
    train_epoch(model, optimizer, scaler, epoch)
if rank == 0:
    torch.save({"epoch": epoch, "model": model.module.state_dict(),
                "optimizer": optimizer.state_dict(), "scaler": scaler.state_dict()}, path)
dist.barrier()
for epoch in range(2, 4):
    train_epoch(model, optimizer, scaler, epoch)
uninterrupted = model.module.weight.detach().clone()
del model, optimizer

# Second run: start again from the checkpoint.
model, optimizer, scaler = build()
print("fresh scaler scale:", float(scaler.get_scale()))
checkpoint = torch.load(path, map_location=device)
model.module.load_state_dict(checkpoint["model"])
optimizer.load_state_dict(checkpoint["optimizer"])
scaler.load_state_dict(checkpoint["scaler"])
start = checkpoint["epoch"] + 1
print(f"resuming at epoch {start}, scaler scale {scaler.get_scale()}")
for epoch in range(start, 4):
    train_epoch(model, optimizer, scaler, epoch)
print("same weights as the run that never stopped:",
      torch.equal(model.module.weight, uninterrupted))

dist.barrier()  # every rank has read the checkpoint before it is deleted
if rank == 0:
    shutil.rmtree(holder[0])

del model, optimizer  # free DDP before tearing down the process group it uses
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
