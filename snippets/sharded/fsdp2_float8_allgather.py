"""Float8 all-gather with FSDP2 (torchao): convert_to_float8_training with
Float8LinearConfig(enable_fsdp_float8_all_gather=True) swaps the Linear layers for float8
ones whose weights FSDP2 all-gathers in float8. Two steps, compared with one process that
runs the same float8 model unsharded. Needs torchao and CUDA compute capability 8.9+.

Run: torchrun --standalone --nproc-per-node=2 fsdp2_float8_allgather.py
Variants: nccl-cuda
"""
import copy
import gc
import logging
import os
import sys

import torch
import torch.distributed as dist
# Before init_process_group: imported later (as optimizers do), it keeps a reference
# to the default group, and destroy_process_group() cannot free it (torch 2.15).
import torch.distributed.nn  # noqa: F401
from torch import nn
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard

# torchao 0.18 registers an Enum with torch's pytree at import, which torch 2.15 logs as
# deprecated (a warning on stderr, harmless): silence that one logger
logging.getLogger("torch.utils._pytree").setLevel(logging.ERROR)
from torchao.float8 import (
    Float8LinearConfig,
    convert_to_float8_training,
    precompute_float8_dynamic_scale_for_fsdp,
)

# float8 matrix products (torch._scaled_mm) need compute capability 8.9 (Ada, Hopper) or newer
if not torch.cuda.is_available() or torch.cuda.get_device_capability() < (8, 9):
    sys.exit("fsdp2_float8_allgather.py needs a CUDA GPU of compute capability 8.9 or newer")

backend = os.environ.get("BACKEND", "nccl")
device_type = os.environ.get("DEVICE", "cuda")
device_id = torch.device(device_type, int(os.environ["LOCAL_RANK"]))
torch.cuda.set_device(device_id)
dist.init_process_group(backend, device_id=device_id)
rank = dist.get_rank()
mesh = init_device_mesh(device_type, (2,), mesh_dim_names=("dp",))

torch.manual_seed(0)
# Two blocks of Linear and ReLU (sizes multiples of 16, as float8 matrix products want).
# The blocks, not the Linear layers, are sharded: a Float8Linear returns a view, and
# fully_shard warns when the module it wraps returns one.
model = nn.Sequential(*(nn.Sequential(nn.Linear(64, 64, bias=False), nn.ReLU())
                        for _ in range(2))).to(device_type)
config = Float8LinearConfig(enable_fsdp_float8_all_gather=True)
convert_to_float8_training(model, config=config)  # in place: swaps every nn.Linear
reference = copy.deepcopy(model)  # the same float8 layers, one process, not sharded
linear = model[0][0]
print(f"rank {rank}: the first layer is a {type(linear).__name__},"
      f" its weight a {type(linear.weight).__name__}")
for block in model:
    fully_shard(block, mesh=mesh)
fully_shard(model, mesh=mesh)
print(f"rank {rank}: after fully_shard, local shard {list(linear.weight.to_local().shape)}"
      f" a {type(linear.weight.to_local()).__name__}")

optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
ref_optimizer = torch.optim.SGD(reference.parameters(), lr=0.1)
for step in range(2):
    torch.manual_seed(100 + step)  # the same batch on every rank
    x = torch.randn(32, 64, device=device_type)
    y = torch.randn(32, 64, device=device_type)
    rows = slice(16 * rank, 16 * rank + 16)  # each rank takes half of it
    loss = nn.functional.mse_loss(model(x[rows]), y[rows])
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
    # one all-reduce computes the scales of all float8 weights for the next all-gather
    precompute_float8_dynamic_scale_for_fsdp(model)
    with torch.no_grad():
        expected = nn.functional.mse_loss(reference(x[rows]), y[rows])
    nn.functional.mse_loss(reference(x), y).backward()
    ref_optimizer.step()
    ref_optimizer.zero_grad()
    close = torch.allclose(loss, expected, rtol=1e-3)
    print(f"rank {rank} step {step} loss {loss.item():.3f} reference {expected.item():.3f}"
          f" close {close}")

del model, linear, mesh
gc.collect()  # FSDP's modules, hooks and graphs form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
