"""dist.scatter: the src rank hands entry i of a list to rank i.

Run: torchrun --standalone --nproc-per-node=2 scatter.py
Variants: gloo-cpu, nccl-cuda
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

world = dist.get_world_size()
# Only src passes the list (one tensor per rank); every other rank passes None.
pieces = ([torch.tensor([100 + i, 200 + i], device=device) for i in range(world)]
          if rank == 0 else None)
received = torch.zeros(2, dtype=torch.int64, device=device)
dist.scatter(received, pieces, src=0)
print(f"src's list: {None if pieces is None else [p.tolist() for p in pieces]}")
print(f"received:   {received.tolist()}")

dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
