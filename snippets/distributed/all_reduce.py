"""dist.all_reduce: every rank ends up with the element-wise sum over all ranks, in place.

Run: torchrun --standalone --nproc-per-node=2 all_reduce.py
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

tensor = torch.arange(3, device=device) + 10 * rank
print(f"rank {rank} before: {tensor.tolist()}")
dist.all_reduce(tensor, op=dist.ReduceOp.SUM)  # blocks until every rank has the result
print(f"rank {rank} after:  {tensor.tolist()}")

dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
