"""Migration pair, FSDP1 side: ShardingStrategy.FULL_SHARD frees gathered weights after forward.

Run: torchrun --standalone --nproc-per-node=2 migrate_full_shard_fsdp1.py
Variants: gloo-cpu, nccl-cuda
"""
import gc
import os

import torch
import torch.distributed as dist
# Before init_process_group: imported later (as optimizers do), it keeps a reference
# to the default group, and destroy_process_group() cannot free it (torch 2.15).
import torch.distributed.nn  # noqa: F401
from torch import nn
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
from torch.distributed.fsdp import ShardingStrategy
from torch.distributed.fsdp.wrap import ModuleWrapPolicy

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
device_type = os.environ.get("DEVICE", "cpu")
device = torch.device("cpu")
if device_type == "cuda":
    torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
    device = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
dist.init_process_group(backend, device_id=device if device.type == "cuda" else None)
rank = dist.get_rank()

torch.manual_seed(0)  # the same model on every rank, and in the FSDP2 snippet of the pair
model = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 2)).to(device)
model = FSDP(model, auto_wrap_policy=ModuleWrapPolicy({nn.Linear}), device_id=device,
             use_orig_params=True,  # parameters keep their names, as with fully_shard
             sharding_strategy=ShardingStrategy.FULL_SHARD)  # the option of this pair

optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
torch.manual_seed(1 + rank)  # each rank its own batch, the same in both snippets
x = torch.randn(8, 4, device=device)
y = torch.randn(8, 2, device=device)
for step in range(3):
    loss = nn.functional.mse_loss(model(x), y)
    if step == 0:  # between forward and backward: resharded, a flat slice
        weight = model.module[0].weight
        print(f"rank {rank} after forward: 0.weight {type(weight).__name__} "
              f"{list(weight.shape)}")
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
    print(f"rank {rank} step {step} loss {loss.item():.6f}")

del model, optimizer, loss, weight
gc.collect()  # FSDP's modules, hooks and graphs form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
