"""A training script for several machines: every rank says where it runs, then sums the ranks
with an all_reduce that crosses the machines.

Run: torchrun --standalone --nproc-per-node=2 train.py
Variants: gloo-cpu
"""
import os

# Started by srun without torchrun: Slurm's variables say which rank this is.
if "RANK" not in os.environ and "SLURM_PROCID" in os.environ:
    os.environ["RANK"] = os.environ["SLURM_PROCID"]
    os.environ["WORLD_SIZE"] = os.environ["SLURM_NTASKS"]
    os.environ["LOCAL_RANK"] = os.environ["SLURM_LOCALID"]
    os.environ["GROUP_RANK"] = os.environ["SLURM_NODEID"]

import torch
import torch.distributed as dist

dist.init_process_group("gloo")  # env://: RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT
rank, world_size = dist.get_rank(), dist.get_world_size()
node, local_rank = os.environ["GROUP_RANK"], os.environ["LOCAL_RANK"]

total = torch.tensor([float(rank)])
dist.all_reduce(total)  # crosses the machines: every rank gets 0 + 1 + ... + (world_size - 1)
# One write per line: the workers of a machine share torchrun's output.
print(f"rank {rank}: node {node}, local rank {local_rank}, world size {world_size}, "
      f"sum of ranks {total.item():g}\n", end="", flush=True)

dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
