"""MixedPrecisionPolicy: bfloat16 compute, float32 sharded parameters and gradients.

Run: torchrun --standalone --nproc-per-node=2 fsdp2_mixed_precision.py
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
from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
device_type = os.environ.get("DEVICE", "cpu")
device_id = None
if device_type == "cuda":
    device_id = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device_id)
dist.init_process_group(backend, device_id=device_id)
rank = dist.get_rank()

mesh = init_device_mesh(device_type, (2,))
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 2)).to(device_type)
policy = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
fully_shard(model[0], mesh=mesh, mp_policy=policy)
fully_shard(model[2], mesh=mesh, mp_policy=policy)
fully_shard(model, mesh=mesh, mp_policy=policy)  # also casts the input to bfloat16


def show_dtype(module, args):
    weight = module.weight
    print(f"rank {rank} in forward: input {args[0].dtype}, weight {weight.dtype}")


model[0].register_forward_pre_hook(show_dtype)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
torch.manual_seed(1 + rank)
x = torch.randn(8, 4, device=device_type)
out = model(x)
loss = out.float().pow(2).mean()
loss.backward()
optimizer.step()
print(f"rank {rank} output {out.dtype}, loss {loss.item():.4f}")
weight = model[0].weight
print(f"rank {rank} stored shard {weight.to_local().dtype},"
      f" gradient shard {weight.grad.to_local().dtype}")

del model, optimizer, out, loss, weight, mesh
gc.collect()  # FSDP's modules, hooks and graphs form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
