"""What torchrun tells each process: its global rank, its local rank on its machine, the world
size.

Run: torchrun --standalone --nproc-per-node=2 ranks.py
"""
import os

import torch.distributed as dist

backend = os.environ.get("BACKEND", "gloo")
dist.init_process_group(backend)
rank = dist.get_rank()

print("RANK:", os.environ["RANK"], "= dist.get_rank():", rank)
print("LOCAL_RANK:", os.environ["LOCAL_RANK"], "(picks the GPU: cuda:LOCAL_RANK)")
print("WORLD_SIZE:", os.environ["WORLD_SIZE"], "= dist.get_world_size():", dist.get_world_size())
print("LOCAL_WORLD_SIZE:", os.environ["LOCAL_WORLD_SIZE"], "(processes on this machine)")
print("GROUP_RANK:", os.environ["GROUP_RANK"], "(this machine's node rank)")
if rank == 0:
    print("only rank 0 prints this line")

dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
