"""Rank, local rank, node and world size: what each of four workers on one machine is told.

Run: torchrun --standalone --nproc-per-node=4 overview_ranks.py
"""
import os

import torch
import torch.distributed as dist

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
device_id = None
if os.environ.get("DEVICE", "cpu") == "cuda":
    device_id = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device_id)
dist.init_process_group(backend, device_id=device_id)

me = {
    "rank": dist.get_rank(),                       # unique in the whole job: 0 .. world_size-1
    "local_rank": int(os.environ["LOCAL_RANK"]),   # unique on this machine: picks the GPU
    "node": int(os.environ["GROUP_RANK"]),         # which machine
    "world_size": dist.get_world_size(),           # processes in the whole job
}
print(f"I am {me}")

everyone = [None] * me["world_size"]
dist.all_gather_object(everyone, me)  # every rank learns about every other one
if me["rank"] == 0:
    print("the whole job, as rank 0 sees it:")
    for worker in everyone:
        print(f"  rank {worker['rank']}: node {worker['node']}, local rank "
              f"{worker['local_rank']}")

dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
