"""Tutorial, collectives: all_reduce within a group made of ranks 0 and 1 of four.

Run: torchrun --standalone --nproc-per-node=4 tutorial_allreduce.py
"""
import os

import torch
import torch.distributed as dist

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
if os.environ.get("DEVICE", "cpu") == "cuda":
    device = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device)
else:
    device = torch.device("cpu")
dist.init_process_group(backend, device_id=device if device.type == "cuda" else None)
rank = dist.get_rank()

group = dist.new_group([0, 1])  # every rank makes this call; only 0 and 1 are members
tensor = torch.ones(1, device=device)
if rank in (0, 1):
    dist.all_reduce(tensor, op=dist.ReduceOp.SUM, group=group)
print(f"rank {rank} has {tensor.item()}")  # 2.0 in the group, untouched 1.0 outside

del group  # a group handle kept alive would outlive destroy_process_group()
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
