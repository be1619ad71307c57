"""FSDP1 to FSDP2: the same model and batches give the same losses with both.

Run: torchrun --standalone --nproc-per-node=2 fsdp1_to_fsdp2.py
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
from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
from torch.distributed.fsdp import ShardingStrategy, fully_shard
from torch.distributed.fsdp.wrap import ModuleWrapPolicy

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
device_type = os.environ.get("DEVICE", "cpu")
device = torch.device("cpu")
if device_type == "cuda":
    torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
    device = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
dist.init_process_group(backend, device_id=device if device.type == "cuda" else None)
rank = dist.get_rank()


def new_model():
    torch.manual_seed(0)  # the same full model for both, on every rank
    return nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 2)).to(device)


def train(model):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    torch.manual_seed(1 + rank)  # each rank trains on its own batch
    x = torch.randn(8, 4, device=device)
    y = torch.randn(8, 2, device=device)
    losses = []
    for _ in range(3):
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        losses.append(loss.item())
    return losses


full = StateDictOptions(full_state_dict=True)

# FSDP1: a wrapper class; units chosen by a policy; flat parameters
fsdp1 = FSDP(new_model(), auto_wrap_policy=ModuleWrapPolicy({nn.Linear}),
             sharding_strategy=ShardingStrategy.FULL_SHARD, device_id=device)
losses1 = train(fsdp1)
state1 = get_model_state_dict(fsdp1, options=full)

# FSDP2: fully_shard each unit in place, bottom-up; DTensor parameters
mesh = init_device_mesh(device_type, (2,))
fsdp2 = new_model()
for layer in (fsdp2[0], fsdp2[2]):
    fully_shard(layer, mesh=mesh, reshard_after_forward=True)  # as FULL_SHARD
fully_shard(fsdp2, mesh=mesh)
losses2 = train(fsdp2)
state2 = get_model_state_dict(fsdp2, options=full)

for step, (a, b) in enumerate(zip(losses1, losses2)):
    print(f"rank {rank} step {step} FSDP1 {a:.6f} FSDP2 {b:.6f} equal: {a == b}")
print(f"rank {rank} FSDP1 model: {type(fsdp1).__name__},"
      f" FSDP2 model: {type(fsdp2).__name__}")
same = state1.keys() == state2.keys() and all(torch.equal(state1[k], state2[k]) for k in state1)
print(f"rank {rank} trained state dicts equal: {same}")

del fsdp1, fsdp2, layer, state1, state2, mesh
gc.collect()  # FSDP's modules, hooks and graphs form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
