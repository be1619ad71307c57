"""PrepareModuleInput/Output/InputOutput: convert the layouts at a module's boundary.

Run: torchrun --standalone --nproc-per-node=2 tp_prepare_module.py
Variants: gloo-cpu, nccl-cuda
"""
import gc
import os

import torch
import torch.distributed as dist
# Before init_process_group: imported later (as DTensor does), it keeps a reference
# to the default group, and destroy_process_group() cannot free it (torch 2.15).
import torch.distributed.nn  # noqa: F401
from torch import nn
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import DTensor, Replicate, Shard
from torch.distributed.tensor.parallel import (
    PrepareModuleInput,
    PrepareModuleInputOutput,
    PrepareModuleOutput,
    parallelize_module,
)

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
device_type = os.environ.get("DEVICE", "cpu")
device_id = None
if device_type == "cuda":
    device_id = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device_id)
dist.init_process_group(backend, device_id=device_id)
rank = dist.get_rank()


def describe(t):
    if isinstance(t, DTensor):
        return f"DTensor {t.placements} {t.to_local().tolist()}"
    return f"Tensor {t.tolist()}"


class Show(nn.Module):  # prints what its forward receives, returns it times 10
    def forward(self, x):
        print(f"rank {rank}   {self.name} forward sees {describe(x)}")
        return x * 10


model = nn.ModuleDict({"a": Show(), "b": Show(), "c": Show()})
for name, module in model.items():
    module.name = name
mesh = init_device_mesh(device_type, (2,))
parallelize_module(model, mesh, {
    # each rank passes its rows (Shard(0)); forward sees them all-gathered
    "a": PrepareModuleInput(input_layouts=Shard(0), desired_input_layouts=Replicate(),
                            use_local_output=False),
    # forward returns the full result (Replicate()); each caller gets its rows
    "b": PrepareModuleOutput(output_layouts=Replicate(), desired_output_layouts=Shard(0)),
    # both at once; use_local_input=True hands forward a plain tensor
    "c": PrepareModuleInputOutput(input_layouts=Shard(0), desired_input_layouts=Replicate(),
                                  use_local_input=True, output_layouts=Replicate(),
                                  desired_output_layouts=Shard(0)),
})

mine = torch.full((1, 2), float(rank), device=device_type)  # rank r holds row [r, r]
both = torch.tensor([[0.0, 0.0], [1.0, 1.0]], device=device_type)  # the same on every rank
print(f"rank {rank} a gets {describe(mine)}")
print(f"rank {rank} a returns {describe(model.a(mine))}")
print(f"rank {rank} b gets {describe(both)}")
print(f"rank {rank} b returns {describe(model.b(both))}")
print(f"rank {rank} c gets {describe(mine)}")
print(f"rank {rank} c returns {describe(model.c(mine))}")

del model, mesh
gc.collect()  # modules, hooks and graphs can form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
