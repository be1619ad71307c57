"""clip_grad_norm_ on FSDP2's sharded gradients: the norm is global, as without FSDP.

Run: torchrun --standalone --nproc-per-node=2 fsdp2_clip_grad.py
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
from torch.distributed.fsdp import fully_shard

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
reference = copy.deepcopy(model)  # unsharded, trained on the whole batch
fully_shard(model[0], mesh=mesh)
fully_shard(model[2], mesh=mesh)
fully_shard(model, mesh=mesh)

torch.manual_seed(1)  # the same global batch everywhere; each rank takes half the rows
x = torch.randn(8, 4, device=device_type)
y = torch.randn(8, 2, device=device_type)
rows = slice(4 * rank, 4 * rank + 4)
nn.functional.mse_loss(model(x[rows]), y[rows]).backward()
nn.functional.mse_loss(reference(x), y).backward()

norm = nn.utils.clip_grad_norm_(model.parameters(), max_norm=0.1)
ref_norm = nn.utils.clip_grad_norm_(reference.parameters(), max_norm=0.1)
print(f"rank {rank} returned norm: {type(norm).__name__} {norm.placements}")
print(f"rank {rank} total norm {norm.full_tensor().item():.4f},"
      f" single-process {ref_norm.item():.4f}")
same = all(torch.allclose(p.grad.full_tensor(), r.grad, atol=1e-6)
           for p, r in zip(model.parameters(), reference.parameters()))
print(f"rank {rank} clipped gradients equal the single-process ones: {same}")

del model, norm, mesh
gc.collect()  # FSDP's modules, hooks and graphs form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
