"""dist.reduce: like all_reduce, but only the dst rank is guaranteed to receive the result.

Run: torchrun --standalone --nproc-per-node=2 reduce.py
Variants: gloo-cpu, nccl-cuda
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

tensor = torch.tensor([1.0, 2.0], device=device) * (rank + 1)
print(f"before:      {tensor.tolist()}")
dist.reduce(tensor, dst=0, op=dist.ReduceOp.SUM)
print(f"after SUM:   {tensor.tolist()}")  # the sum on rank 0

tensor = torch.tensor([1.0, 2.0], device=device) * (rank + 1)
dist.reduce(tensor, dst=0, op=dist.ReduceOp.AVG)
print(f"after AVG:   {tensor.tolist()}")  # rank 1: not its input any more, not the result

dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
