"""dist.all_gather: every rank receives every rank's tensor, as a list with one entry per rank.

Run: torchrun --standalone --nproc-per-node=2 all_gather.py
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
gathered = [torch.zeros(2, dtype=torch.int64, device=device) for _ in range(world)]
print(f"input:  {mine.tolist()}")
dist.all_gather(gathered, mine)  # fills the list; mine is unchanged
print(f"output: {[t.tolist() for t in gathered]}")

dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
