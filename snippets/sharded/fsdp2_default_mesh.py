"""fully_shard without mesh=: the default mesh follows the accelerator, not the backend.

Run: torchrun --standalone --nproc-per-node=2 fsdp2_default_mesh.py
Variants: gloo-cpu
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
from torch.distributed.fsdp import fully_shard

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
device_type = os.environ.get("DEVICE", "cpu")
device_id = None
if device_type == "cuda":
    device_id = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device_id)
dist.init_process_group(backend, device_id=device_id)
rank = dist.get_rank()

print(f"rank {rank} backend {dist.get_backend()},"
      f" accelerator available: {torch.accelerator.current_accelerator(check_available=True)}")
model = nn.Linear(4, 4)
fully_shard(model)  # no mesh: one is built over all ranks for the accelerator, if any
mesh = model.weight.device_mesh
print(f"rank {rank} default mesh: device type {mesh.device_type!r},"
      f" shard on {model.weight.to_local().device}")
cpu_mesh = init_device_mesh("cpu", (2,))
explicit = nn.Linear(4, 4)
fully_shard(explicit, mesh=cpu_mesh)  # what a gloo/CPU program should pass
print(f"rank {rank} explicit CPU mesh: device type {cpu_mesh.device_type!r},"
      f" shard on {explicit.weight.to_local().device}")

del model, explicit, cpu_mesh, mesh
gc.collect()  # FSDP's modules, hooks and graphs form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
