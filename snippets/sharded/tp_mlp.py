"""parallelize_module: a 2-layer MLP split column- then row-wise; output as one process.

Run: torchrun --standalone --nproc-per-node=2 tp_mlp.py
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
from torch.distributed.tensor.parallel import (
    ColwiseParallel,
    RowwiseParallel,
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


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.up = nn.Linear(4, 8)
        self.down = nn.Linear(8, 4)

    def forward(self, x):
        return self.down(torch.relu(self.up(x)))


mesh = init_device_mesh(device_type, (2,), mesh_dim_names=("tp",))
torch.manual_seed(0)  # the same full weights on every rank
model = MLP().to(device_type)
reference = copy.deepcopy(model)  # the unsplit model, run by each rank alone
parallelize_module(model, mesh, {
    "up": ColwiseParallel(),  # output features split: each rank computes 4 of the 8
    "down": RowwiseParallel(),  # input features split; partial outputs are all-reduced
})
for name, param in model.named_parameters():
    print(f"rank {rank} {name}: {param.placements}, global {list(param.shape)},"
          f" local {list(param.to_local().shape)}")

torch.manual_seed(1)
x = torch.randn(3, 4, device=device_type)  # every rank passes the same input
out = model(x)  # a plain tensor again (use_local_output=True), replicated
print(f"rank {rank} output type {type(out).__name__}, shape {list(out.shape)}")
same = torch.allclose(out, reference(x))
print(f"rank {rank} equals the single-process output: {same}")

del model, out, mesh
gc.collect()  # modules, hooks and graphs can form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
