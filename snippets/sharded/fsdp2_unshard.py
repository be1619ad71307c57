"""FSDP2's handles: UnshardHandle from unshard(async_op=True), GradientReductionHandle from
finalize_backward.

Run: torchrun --standalone --nproc-per-node=2 fsdp2_unshard.py
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
from torch.distributed.fsdp import GradientReductionHandle, UnshardHandle, fully_shard
from torch.distributed.tensor import DTensor

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
fully_shard(model[0], mesh=mesh)
fully_shard(model[2], mesh=mesh)
fully_shard(model, mesh=mesh)


def describe(when):
    weight = model[0].weight  # look it up again: unshard() registers another object
    if isinstance(weight, DTensor):
        shown = f"DTensor {list(weight.shape)}, local {list(weight.to_local().shape)}"
    else:
        shown = f"{type(weight).__name__} {list(weight.shape)}"
    print(f"rank {rank} {when}: 0.weight is {shown}")


describe("after fully_shard")
handle = model[0].unshard(async_op=True)  # starts the all-gather, returns at once
print(f"rank {rank} unshard(async_op=True) returned UnshardHandle:"
      f" {isinstance(handle, UnshardHandle)}")
describe("before handle.wait()")
handle.wait()  # the gathered parameters are registered on the module now
describe("after handle.wait()")
full = model[0].weight.detach().clone()
model[0].reshard()  # frees the gathered weight and registers the DTensor again
describe("after reshard()")
same = torch.equal(full, model[0].weight.full_tensor())
print(f"rank {rank} gathered weight equals full_tensor(): {same}")
print(f"rank {rank} unshard() without async_op returns {model[0].unshard()}")
model[0].reshard()

model.set_manual_backward_finalization(True)  # on the root, before forward
model(torch.ones(2, 4, device=device_type)).sum().backward()
describe("after backward")
reduction = model.finalize_backward(async_op=True)  # ends the backward iteration
print(f"rank {rank} finalize_backward(async_op=True) returned GradientReductionHandle:"
      f" {isinstance(reduction, GradientReductionHandle)}")
reduction.wait()  # before reading the gradients or the next forward
describe("after reduction.wait()")
print(f"rank {rank} 0.weight.grad: local {list(model[0].weight.grad.to_local().shape)}")

del model, handle, reduction, full, mesh
gc.collect()  # FSDP's modules, hooks and graphs form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
