"""Seed random augmentation with seed + rank; give DistributedSampler the same seed on every
rank.

Run: torchrun --standalone --nproc-per-node=2 per_rank_seed.py
"""
import os
import random

import numpy as np
import torch
import torch.distributed as dist
from torch.utils.data import DistributedSampler

backend = os.environ.get("BACKEND", "gloo")
dist.init_process_group(backend)
rank = dist.get_rank()
SEED = 42


def seed_everything(seed):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


seed_everything(SEED)
# the same draws on every rank
print("seed,        random flips:", (torch.rand(4) < 0.5).tolist())
seed_everything(SEED + rank)
print("seed + rank, random flips:", (torch.rand(4) < 0.5).tolist())  # each rank draws its own


def overlap(sampler):
    """Indices that more than one rank would read."""
    shards = [None] * dist.get_world_size()
    dist.all_gather_object(shards, list(sampler))
    seen = [i for shard in shards for i in shard]
    return sorted({i for i in seen if seen.count(i) > 1})


right = DistributedSampler(range(8), seed=SEED)
wrong = DistributedSampler(range(8), seed=SEED + rank)  # a different permutation on each rank
print("sampler seed=SEED:       ", list(right), "shared with another rank:", overlap(right))
print("sampler seed=SEED + rank:", list(wrong), "shared with another rank:", overlap(wrong))

dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
