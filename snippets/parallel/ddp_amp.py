"""Mixed precision with DDP: bfloat16 autocast alone, or float16 autocast with a GradScaler.

bfloat16 (CPUs, and NVIDIA GPUs from Ampere on) has the exponent range of float32: autocast
alone is the whole recipe. float16 needs torch.amp.GradScaler against gradient underflow, and
anything that reads the gradients, such as clipping, must see them unscaled:
scaler.unscale_(optimizer) before clip_grad_norm_. Both recipes run here, on the same data.

Run: torchrun --standalone --nproc-per-node=2 ddp_amp.py
Variants: gloo-cpu, nccl-cuda
"""
import os

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
dist.init_process_group(backend, device_id=device if device.type == "cuda" else None)
rank = dist.get_rank()

torch.manual_seed(1 + rank)
x, y = torch.randn(32, 8, device=device), torch.randn(32, 1, device=device)


def build():
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1)).to(device),
                device_ids=[device.index] if device.type == "cuda" else None)
    return model, torch.optim.SGD(model.parameters(), lr=0.05)


# bfloat16: autocast, backward, clip, step; no scaler
print("bfloat16, no GradScaler:")
bf16_model, bf16_optimizer = build()
for step in range(3):
    with torch.autocast(device_type=device.type, dtype=torch.bfloat16):  # forward and loss
        out = bf16_model(x)
        loss = nn.functional.mse_loss(out.float(), y)
    bf16_optimizer.zero_grad()
    loss.backward()  # outside autocast
    norm = nn.utils.clip_grad_norm_(bf16_model.parameters(), max_norm=1.0)
    bf16_optimizer.step()
    print(f"  step {step}: local loss {loss.item():.4f}, gradient norm {norm.item():.4f}")
weight = bf16_model.module[0].weight
print("  output:", out.dtype, "| parameters:", weight.dtype, "| gradients:", weight.grad.dtype)

# float16: the scaler multiplies the loss, unscale_ restores the gradients before clipping
print("float16 with GradScaler:")
fp16_model, fp16_optimizer = build()
scaler = torch.amp.GradScaler(device.type)  # the device is needed: the default means CUDA
for step in range(3):
    with torch.autocast(device_type=device.type, dtype=torch.float16):
        out = fp16_model(x)
        loss = nn.functional.mse_loss(out.float(), y)
    fp16_optimizer.zero_grad()
    scaler.scale(loss).backward()  # gradients of loss * scale
    scaled = nn.utils.get_total_norm([p.grad for p in fp16_model.parameters()])
    scaler.unscale_(fp16_optimizer)  # divides the gradients by the scale, in place
    norm = nn.utils.clip_grad_norm_(fp16_model.parameters(), max_norm=1.0)
    scaler.step(fp16_optimizer)  # skips the step if the gradients hold inf/NaN
    scaler.update()
    print(f"  step {step}: local loss {loss.item():.4f}, gradient norm {norm.item():.4f} "
          f"({scaled.item():.0f} before unscale_)")
print("  scale:", scaler.get_scale())

del bf16_model, fp16_model, bf16_optimizer, fp16_optimizer  # free DDP before the teardown
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
