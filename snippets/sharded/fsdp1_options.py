"""FSDP1 options on CPU: sharding strategies, MixedPrecision, CPUOffload, device_id.

Run: torchrun --standalone --nproc-per-node=2 fsdp1_options.py
Variants: gloo-cpu
"""
import gc
import warnings

import torch
import torch.distributed as dist
# Before init_process_group: imported later (as optimizers do), it keeps a reference
# to the default group, and destroy_process_group() cannot free it (torch 2.15).
import torch.distributed.nn  # noqa: F401
from torch import nn
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import CPUOffload, MixedPrecision, ShardingStrategy
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP

dist.init_process_group("gloo")
rank = dist.get_rank()
cpu = torch.device("cpu")
mesh_2d = init_device_mesh("cpu", (1, 2), mesh_dim_names=("replicate", "shard"))


def new_model():
    torch.manual_seed(0)  # the same full model every time, on every rank
    return nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 2))


def train(model):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    torch.manual_seed(1 + rank)  # each rank trains on its own batch
    x, y = torch.randn(8, 4), torch.randn(8, 2)
    losses = []
    for _ in range(3):
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        losses.append(round(loss.item(), 4))
    return losses


configs = {
    "FULL_SHARD": dict(sharding_strategy=ShardingStrategy.FULL_SHARD),
    "SHARD_GRAD_OP": dict(sharding_strategy=ShardingStrategy.SHARD_GRAD_OP),
    "NO_SHARD": dict(sharding_strategy=ShardingStrategy.NO_SHARD),
    # replicate over mesh dim 0 (size 1 here), shard over dim 1
    "HYBRID_SHARD": dict(sharding_strategy=ShardingStrategy.HYBRID_SHARD, device_mesh=mesh_2d),
    "bfloat16": dict(mixed_precision=MixedPrecision(
        param_dtype=torch.bfloat16, reduce_dtype=torch.float32)),
}
for name, options in configs.items():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model = FSDP(new_model(), device_id=cpu, **options)
        # no use_orig_params: all parameters of the unit live in one flat parameter
        local = [list(p.shape) for p in model.parameters()]
        print(f"rank {rank} {name}: flat parameter {local}, losses {train(model)}")
    for w in caught:
        print(f"rank {rank}   {w.category.__name__}: {w.message}")
    del model

try:  # no device_id, no accelerator: FSDP1 refuses to start
    FSDP(new_model())
except RuntimeError as e:
    print(f"rank {rank} without device_id: RuntimeError: {e}")

# offload_params=True pins host memory, which needs a GPU (on the first forward)
model = FSDP(new_model(), device_id=cpu, cpu_offload=CPUOffload(offload_params=True))
try:
    model(torch.randn(8, 4))
except RuntimeError as e:
    print(f"rank {rank} CPUOffload(offload_params=True): RuntimeError: {e}")

del model, configs, options, mesh_2d
gc.collect()  # FSDP's modules, hooks and graphs form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
