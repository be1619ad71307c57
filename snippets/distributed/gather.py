"""dist.gather: the dst rank receives every rank's tensor in a list; the others receive nothing.

Run: torchrun --standalone --nproc-per-node=2 gather.py
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
mine = torch.tensor([rank + 1, 10 * (rank + 1)], device=device)
# Only dst passes a list to fill; every other rank passes None.
gathered = ([torch.zeros(2, dtype=torch.int64, device=device) for _ in range(world)]
            if rank == 0 else None)
dist.gather(mine, gathered, dst=0)
print(f"sent:     {mine.tolist()}")
print(f"received: {None if gathered is None else [t.tolist() for t in gathered]}")

dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
