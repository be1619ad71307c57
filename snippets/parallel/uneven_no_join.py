"""Uneven inputs without Join: the rank with more batches waits in an all-reduce that its
peer never joins.

Rank 0 has 3 batches, rank 1 has 2. After its 2nd step rank 1 leaves the loop; rank 0's 3rd
backward starts DDP's gradient all-reduce and waits for rank 1 there. With the default
timeout (30 minutes for gloo) the job would hang that long; the DDP model here runs on a
group made with a 3-second timeout, so the wait ends in an error on rank 0.

Run: torchrun --standalone --nproc-per-node=2 uneven_no_join.py
Timeout: 60
"""
import re
from datetime import timedelta

import torch
import torch.distributed as dist
# Before init_process_group: imported later (as DDP and optimizers do), it keeps a reference
# to the default group, and destroy_process_group() cannot free it (torch 2.15).
import torch.distributed.nn  # noqa: F401
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo", timeout=timedelta(minutes=5))
rank = dist.get_rank()
# for DDP: new_group() does not inherit timeout=
short = dist.new_group(timeout=timedelta(seconds=3))

torch.manual_seed(0)
model = DDP(nn.Linear(3, 1), process_group=short)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

torch.manual_seed(1 + rank)
batches = [torch.randn(4, 3) for _ in range(3 - rank)]  # rank 0: 3, rank 1: 2

steps = 0
try:
    for x in batches:
        optimizer.zero_grad()
        model(x).pow(2).mean().backward()
        optimizer.step()
        steps += 1
except RuntimeError as exc:
    # drop the "[/path/of/the/build/...cc:NN] " prefix: it names the build machine's tree
    print(f"step {steps + 1} of {len(batches)} raised {type(exc).__name__}:")
    print(re.sub(r"\[[^\]]*\] ", "", str(exc)).splitlines()[0])
print(f"rank {rank}: {steps} steps done of {len(batches)} batches")

del model, optimizer, short  # free DDP and the group before tearing down
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
