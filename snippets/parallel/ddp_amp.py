"""Mixed precision with DDP: torch.autocast for the forward pass, and torch.amp.GradScaler
when the dtype is float16.

Run: torchrun --standalone --nproc-per-node=2 ddp_amp.py
Variants: gloo-cpu, nccl-cuda
"""
import os

import torch
import torch.distributed as dist
# Before init_process_group: imported later (as DDP and optimizers do), it keeps a reference
# to the default group, and destroy_process_group() could not free it (torch 2.13).
import torch.distributed.nn  # noqa: F401
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
dist.init_process_group(backend)
rank = dist.get_rank()
if os.environ.get("DEVICE", "cpu") == "cuda":
    device = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device)
else:
    device = torch.device("cpu")

amp_dtype = torch.float16 if device.type == "cuda" else torch.bfloat16  # CPUs autocast to bfloat16
# bfloat16 needs no loss scaling: the scaler is enabled for float16 only
scaler = torch.amp.GradScaler(device.type, enabled=amp_dtype == torch.float16)

torch.manual_seed(0)
model = DDP(nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1)).to(device),
            device_ids=[device.index] if device.type == "cuda" else None)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)

torch.manual_seed(1 + rank)
x, y = torch.randn(32, 8, device=device), torch.randn(32, 1, device=device)
for step in range(3):
    with torch.autocast(device_type=device.type, dtype=amp_dtype):  # forward pass and loss only
        out = model(x)
        loss = nn.functional.mse_loss(out.float(), y)
    optimizer.zero_grad()
    scaler.scale(loss).backward()  # outside autocast; a disabled scaler returns loss unchanged
    scaler.step(optimizer)  # unscales the gradients, skips the step if they hold inf/NaN
    scaler.update()
    print(f"step {step}: local loss {loss.item():.4f}")

weight = model.module[0].weight
print("output:", out.dtype, "| parameters:", weight.dtype, "| gradients:", weight.grad.dtype)
print("loss scaling:", f"on, scale {scaler.get_scale()}" if scaler.is_enabled() else "off")

del model, optimizer  # free DDP before tearing down the process group it uses
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
