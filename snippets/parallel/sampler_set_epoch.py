"""Call sampler.set_epoch(epoch) every epoch: without it, every epoch repeats the same shuffle.

Run: torchrun --standalone --nproc-per-node=2 sampler_set_epoch.py
"""
import os

import torch.distributed as dist
from torch.utils.data import DistributedSampler

backend = os.environ.get("BACKEND", "gloo")
dist.init_process_group(backend)

sampler = DistributedSampler(range(8))  # shuffle=True, seed=0
for epoch in range(3):
    print(f"epoch {epoch}, no set_epoch:", list(sampler))
for epoch in range(3):
    sampler.set_epoch(epoch)  # the shuffle is seeded with seed + epoch, the same on every rank
    print(f"epoch {epoch}, set_epoch({epoch}):", list(sampler))

dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
