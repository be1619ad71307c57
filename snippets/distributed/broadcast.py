"""dist.broadcast: the src rank's tensor is copied into the same tensor on every other rank.

Run: torchrun --standalone --nproc-per-node=2 broadcast.py
Variants: gloo-cpu, gloo-cuda, nccl-cuda, nccl-cuda-1
Output: same on all devices
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

# Every rank passes a tensor of the same shape and dtype; only src's values matter.
if rank == 0:
    tensor = torch.tensor([7, 8, 9], device=device)
else:
    tensor = torch.zeros(3, dtype=torch.int64, device=device)
print(f"before: {tensor.tolist()}")
dist.broadcast(tensor, src=0)  # in place on every rank but src
print(f"after:  {tensor.tolist()}")

dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
