"""init_process_group() without a backend: only the detected accelerator's backend is set up.

With no backend and no device_id, torch records the backend as "undefined" and sets up one
backend, for the accelerator that is available (nccl for CUDA), or gloo for CPU tensors when
there is none. get_backend() keeps answering "undefined"; get_backend_config() tells what was
set up. current_accelerator() names the accelerator torch was built for (cuda for a CUDA build,
even on a machine without a GPU); check_available=True answers None when it cannot be used.

Run: torchrun --standalone --nproc-per-node=2 default_backend.py
Variants: gloo-cpu, nccl-cuda
"""
import os

import torch
import torch.distributed as dist

# DEVICE=cuda on GPUs; the backend is never named here.
if os.environ.get("DEVICE", "cpu") == "cuda":
    torch.cuda.set_device(int(os.environ["LOCAL_RANK"]) % torch.cuda.device_count())
dist.init_process_group()  # no backend, no device_id
rank = dist.get_rank()
print(f"accelerator built in: {torch.accelerator.current_accelerator()}; "
      f"available: {torch.accelerator.current_accelerator(check_available=True)}")
print(f"get_backend(): {dist.get_backend()!r}")
print(f"get_backend_config(): {dist.get_backend_config()!r}")

device = torch.accelerator.current_accelerator(check_available=True) or torch.device("cpu")
tensor = torch.tensor([rank + 1.0], device=device)
dist.all_reduce(tensor)
print(f"all_reduce on {device.type}: {tensor.item()}; "
      f"get_backend() after it: {dist.get_backend()!r}")

# no rank tears down while a peer still talks to it; without a device_id at init, name the GPU
dist.barrier(device_ids=[device.index or 0] if device.type == "cuda" else None)
dist.destroy_process_group()
