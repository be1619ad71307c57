"""FullyShardedDataParallel (FSDP1) on CPU: wrap, train, and gather a full state dict.

Run: torchrun --standalone --nproc-per-node=2 fsdp1_basic.py
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
from torch.distributed.fsdp import BackwardPrefetch, ShardingStrategy
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
from torch.distributed.fsdp.wrap import ModuleWrapPolicy

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
device_type = os.environ.get("DEVICE", "cpu")
device = torch.device("cpu")
if device_type == "cuda":
    torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
    device = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
dist.init_process_group(backend, device_id=device if device.type == "cuda" else None)
rank = dist.get_rank()

torch.manual_seed(0)  # the same full model on every rank before sharding
model = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 2))
model = FSDP(
    model,
    auto_wrap_policy=ModuleWrapPolicy({nn.Linear}),  # one FSDP unit per Linear, plus the root
    sharding_strategy=ShardingStrategy.FULL_SHARD,  # the default strategy
    backward_prefetch=BackwardPrefetch.BACKWARD_PRE,  # the default prefetch
    device_id=device,  # required on a machine without an accelerator
    use_orig_params=True,  # named_parameters() gives the layers' own parameters
)
for name, param in model.named_parameters():  # each a 1-D slice of a flat buffer
    print(f"rank {rank} {name}: local {list(param.shape)}")

# create the optimizer after wrapping, so that it holds the sharded parameters
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
torch.manual_seed(1 + rank)  # each rank trains on its own batch
x = torch.randn(8, 4, device=device)
y = torch.randn(8, 2, device=device)
for step in range(3):
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()  # reduce-scatter: each rank keeps the average of its shard
    optimizer.step()
    optimizer.zero_grad()
    print(f"rank {rank} step {step} local loss {loss.item():.4f}")

# the full, unwrapped state dict: clean names, every rank (collective: all ranks call it)
state = get_model_state_dict(model, options=StateDictOptions(full_state_dict=True))
print(f"rank {rank} state dict: {[(k, list(v.shape)) for k, v in state.items()]}")
print(f"rank {rank} 0.weight[0]: {[round(v, 4) for v in state['0.weight'][0].tolist()]}")
# cpu_offload=True as well: only rank 0 gets the tensors (to spare host memory)
state = get_model_state_dict(
    model, options=StateDictOptions(full_state_dict=True, cpu_offload=True))
print(f"rank {rank} with cpu_offload=True: {len(state)} entries")

del model, optimizer, loss, state
gc.collect()  # FSDP's modules, hooks and graphs form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
