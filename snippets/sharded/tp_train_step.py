"""Tensor parallel training: after two SGD steps the weights equal a single process's.

Run: torchrun --standalone --nproc-per-node=2 tp_train_step.py
Variants: gloo-cpu, nccl-cuda
"""
import copy
import gc
import os

import torch
import torch.distributed as dist
# Before init_process_group: imported later (as optimizers do), it keeps a reference
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

mesh = init_device_mesh(device_type, (2,), mesh_dim_names=("tp",))
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 4)).to(device_type)
reference = copy.deepcopy(model)
parallelize_module(model, mesh, {"0": ColwiseParallel(), "2": RowwiseParallel()})
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)  # after parallelize_module
ref_optimizer = torch.optim.SGD(reference.parameters(), lr=0.1)

torch.manual_seed(1)  # tensor parallel ranks all see the same batch
x = torch.randn(6, 4, device=device_type)
y = torch.randn(6, 4, device=device_type)
for step in range(2):
    loss = nn.functional.mse_loss(model(x), y)
    ref_loss = nn.functional.mse_loss(reference(x), y)
    loss.backward()
    ref_loss.backward()
    optimizer.step()
    ref_optimizer.step()
    optimizer.zero_grad()
    ref_optimizer.zero_grad()
    print(f"rank {rank} step {step} loss {loss.item():.4f},"
          f" single-process {ref_loss.item():.4f}")
for (name, param), ref in zip(model.named_parameters(), reference.parameters()):
    shard = param.to_local()
    match = torch.allclose(param.full_tensor(), ref, atol=1e-6)
    print(f"rank {rank} {name}: local {list(shard.shape)}, equals reference {match}")

del model, optimizer, loss, param, mesh
gc.collect()  # modules, hooks and graphs can form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
