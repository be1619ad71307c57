"""DistributedSampler gives each rank a disjoint share of the dataset's indices;
drop_last decides what happens to the rest.

Run: torchrun --standalone --nproc-per-node=2 distributed_sampler.py
"""
import os

import torch.distributed as dist
from torch.utils.data import DistributedSampler

backend = os.environ.get("BACKEND", "gloo")
dist.init_process_group(backend)  # the sampler reads rank and world size from the process group

ten, eleven = range(10), range(11)  # any object with len() will do as a dataset here
print("10 items, shuffle=False:", list(DistributedSampler(ten, shuffle=False)))
print("10 items (shuffled):    ", list(DistributedSampler(ten)))
print("11 items:               ", list(DistributedSampler(eleven, shuffle=False)))
print("11 items, drop_last:    ",
      list(DistributedSampler(eleven, shuffle=False, drop_last=True)))

dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
