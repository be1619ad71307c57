"""dist.all_to_all: entry j of rank i's input list becomes entry i of rank j's output list.

Run: torchrun --standalone --nproc-per-node=2 all_to_all.py
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
inputs = [torch.tensor([10 * rank + j], device=device) for j in range(world)]  # j: destination
outputs = [torch.zeros(1, dtype=torch.int64, device=device) for _ in range(world)]
dist.all_to_all(outputs, inputs)
print(f"sent:     {[t.item() for t in inputs]}")   # entry j went to rank j
print(f"received: {[t.item() for t in outputs]}")  # entry i came from rank i

dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
