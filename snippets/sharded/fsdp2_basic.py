"""fully_shard (FSDP2): shard each layer, then the root; parameters become DTensors.

Run: torchrun --standalone --nproc-per-node=2 fsdp2_basic.py
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
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import FSDPModule, fully_shard

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
device_type = os.environ.get("DEVICE", "cpu")
device_id = None
if device_type == "cuda":
    device_id = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device_id)
dist.init_process_group(backend, device_id=device_id)
rank = dist.get_rank()

mesh = init_device_mesh(device_type, (2,))  # pass it explicitly (see the default mesh)
torch.manual_seed(0)  # the same full model on every rank before sharding
model = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 2))
fully_shard(model[0], mesh=mesh)  # bottom-up: one all-gather group per layer
fully_shard(model[2], mesh=mesh)
fully_shard(model, mesh=mesh)  # the root: what is left (here nothing), and the hooks
print(f"rank {rank} model is an FSDPModule: {isinstance(model, FSDPModule)},"
      f" class {type(model).__name__}")
for name, param in model.named_parameters():
    print(f"rank {rank} {name}: {type(param).__name__} {param.placements},"
          f" global {list(param.shape)}, local {list(param.to_local().shape)}")

# create the optimizer after fully_shard, so that it holds the sharded parameters
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
torch.manual_seed(1 + rank)  # each rank trains on its own batch
x = torch.randn(8, 4, device=device_type)
y = torch.randn(8, 2, device=device_type)
for step in range(3):
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()  # reduce-scatter: each rank keeps the average of its shard
    optimizer.step()
    optimizer.zero_grad()
    print(f"rank {rank} step {step} local loss {loss.item():.4f}")
full = model[0].weight.full_tensor()  # all-gathers the shards: equal on every rank
print(f"rank {rank} model[0].weight[0]: {[round(v, 4) for v in full[0].tolist()]}")

del model, optimizer, loss, full, mesh
gc.collect()  # FSDP's modules, hooks and graphs form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
