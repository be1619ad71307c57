"""What the installed torch knows about process-group backends, asked from inside a group.

Run: torchrun --standalone --nproc-per-node=2 backend_info.py
Variants: gloo-cpu, gloo-cuda, nccl-cuda
"""
import os

import torch
import torch.distributed as dist

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
if os.environ.get("DEVICE", "cpu") == "cuda":
    device = torch.device("cuda", int(os.environ["LOCAL_RANK"]) % torch.cuda.device_count())
    torch.cuda.set_device(device)
else:
    device = torch.device("cpu")
dist.init_process_group(backend, device_id=device if device.type == "cuda" else None)
rank = dist.get_rank()

print(f"get_backend(): {dist.get_backend()}")
print(f"is_backend_available({backend!r}): {dist.is_backend_available(backend)}")
print(f"devices {backend} can serve: {dist.Backend.backend_capability[backend]}")
print("default for cpu and cuda: "
      f"{[dist.get_default_backend_for_device(d) for d in ('cpu', 'cuda')]}")
print(f"backend names torch knows: {dist.Backend.backend_list}")

dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
