"""2-D parallelism: tensor parallel inside rows of a 2 x 2 mesh, FSDP2 across them.

Run: torchrun --standalone --nproc-per-node=4 fsdp_tp_2d.py
Variants: gloo-cpu, nccl-cuda
GPUs: 4
"""
import copy
import gc
import logging
import os
import warnings

import torch
import torch.distributed as dist
# Before init_process_group: imported later (as optimizers do), it keeps a reference
# to the default group, and destroy_process_group() cannot free it (torch 2.15).
import torch.distributed.nn  # noqa: F401
from torch import nn
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard
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

# FSDP2 warns when the root's output is a view (the tensor parallel output is one):
# an in-place op on it would skip FSDP's hooks. This script does none.
warnings.filterwarnings("ignore", message="FSDP2-wrapped module .* returned a view")
notices = set()


def to_stdout(record):
    """Keep DTensor's notices for printing below, instead of on stderr."""
    notices.add(record.getMessage().split(". ")[0])  # the first sentence
    return False


logging.getLogger("torch.distributed.tensor._redistribute").addFilter(to_stdout)

mesh = init_device_mesh(device_type, (2, 2), mesh_dim_names=("dp", "tp"))
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 4)).to(device_type)
with torch.no_grad():
    model[0].weight[:, 0] = torch.arange(8.0)  # column 0 holds the row's index
reference = copy.deepcopy(model)
# first tensor parallel over "tp", then FSDP over "dp": the usual order
plan = {"0": ColwiseParallel(), "2": RowwiseParallel()}
parallelize_module(model, mesh["tp"], plan)
fully_shard(model, mesh=mesh["dp"])
print(f"rank {rank} coordinate (dp, tp): {mesh.get_coordinate()}")
for name, param in model.named_parameters():
    local = list(param.to_local().shape)
    print(f"rank {rank} {name}: {param.placements}, local {local}")
rows_here = model[0].weight.to_local()[:, 0].int().tolist()
print(f"rank {rank} rows of 0.weight held here: {rows_here}")

torch.manual_seed(1)  # one batch: each "dp" row of the mesh takes half of it
x = torch.randn(8, 4, device=device_type)
y = torch.randn(8, 4, device=device_type)
half = slice(4 * mesh.get_local_rank("dp"), 4 * mesh.get_local_rank("dp") + 4)
loss = nn.functional.mse_loss(model(x[half]), y[half])
loss.backward()
nn.functional.mse_loss(reference(x), y).backward()
same = all(torch.allclose(p.grad.full_tensor(), r.grad, atol=1e-6)
           for p, r in zip(model.parameters(), reference.parameters()))
print(f"rank {rank} local loss {loss.item():.4f}; gradients as one process's: {same}")
for notice in sorted(notices):
    print(f"rank {rank} logged: {notice}")

del model, loss, param, mesh
gc.collect()  # FSDP's modules, hooks and graphs form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
