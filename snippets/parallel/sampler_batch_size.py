"""Under DDP, a DataLoader's batch_size is per rank; without a DistributedSampler
each rank reads the whole dataset.

Run: torchrun --standalone --nproc-per-node=2 sampler_batch_size.py
"""
import os

import torch
import torch.distributed as dist
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset

backend = os.environ.get("BACKEND", "gloo")
dist.init_process_group(backend)

dataset = TensorDataset(torch.arange(16))
sampler = DistributedSampler(dataset, shuffle=False)  # the sampler shuffles; the loader must not
with_sampler = DataLoader(dataset, batch_size=4, sampler=sampler, num_workers=0)
without = DataLoader(dataset, batch_size=4, shuffle=False, num_workers=0)

print("with the sampler:   ", [batch.tolist() for (batch,) in with_sampler])
print("without a sampler:  ", [batch.tolist() for (batch,) in without])
print("samples per step over all ranks:", with_sampler.batch_size * dist.get_world_size())

try:
    DataLoader(dataset, batch_size=4, sampler=sampler, shuffle=True)
except ValueError as exc:
    print("sampler and shuffle=True:", exc)

dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
