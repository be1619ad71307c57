"""distribute_module: partition_fn shards chosen parameters; input_fn/output_fn convert I/O.

Run: torchrun --standalone --nproc-per-node=2 dtensor_distribute_module.py
Variants: gloo-cpu, nccl-cuda
"""
import copy
import gc
import os

import torch
import torch.distributed as dist
# Before init_process_group: imported later (as DTensor does), it keeps a reference
# to the default group, and destroy_process_group() cannot free it (torch 2.15).
import torch.distributed.nn  # noqa: F401
from torch import nn
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import (
    DTensor,
    Replicate,
    Shard,
    distribute_module,
    distribute_tensor,
)

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
device_type = os.environ.get("DEVICE", "cpu")
device_id = None
if device_type == "cuda":
    device_id = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device_id)
dist.init_process_group(backend, device_id=device_id)
rank = dist.get_rank()


def partition_fn(name, module, mesh):  # called once per submodule, "" for the root
    if name == "0":  # shard the first layer's weight by rows; leave its bias alone
        weight = distribute_tensor(module.weight, mesh, [Shard(0)])
        module.register_parameter("weight", nn.Parameter(weight))


def input_fn(module, inputs, mesh):  # a forward pre-hook: returns the new args
    return tuple(DTensor.from_local(x, mesh, [Replicate()]) for x in inputs)


def output_fn(module, output, mesh):  # a forward hook: returns the new output
    print(f"rank {rank} forward returned {output.placements}")
    return output.full_tensor()


mesh = init_device_mesh(device_type, (2,))
torch.manual_seed(0)  # the same full weights on every rank
model = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 2)).to(device_type)
reference = copy.deepcopy(model)
distribute_module(model, mesh, partition_fn, input_fn, output_fn)
for name, param in model.named_parameters():  # what partition_fn left: Replicate()
    print(f"rank {rank} {name}: {param.placements}, local {list(param.to_local().shape)}")

torch.manual_seed(1)
x = torch.randn(3, 4, device=device_type)  # every rank passes the same input
out = model(x)
print(f"rank {rank} output {type(out).__name__} {list(out.shape)},"
      f" equals the reference: {torch.allclose(out, reference(x))}")

del model, out, mesh
gc.collect()  # modules, hooks and graphs can form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
