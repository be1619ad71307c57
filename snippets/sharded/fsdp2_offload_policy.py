"""OffloadPolicy (no offload, the default) against CPUOffloadPolicy(pin_memory=False).

Run: torchrun --standalone --nproc-per-node=2 fsdp2_offload_policy.py
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
from torch.distributed.fsdp import CPUOffloadPolicy, OffloadPolicy, fully_shard

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
device_type = os.environ.get("DEVICE", "cpu")
device_id = None
if device_type == "cuda":
    device_id = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device_id)
dist.init_process_group(backend, device_id=device_id)
rank = dist.get_rank()

mesh = init_device_mesh(device_type, (2,))
print(f"rank {rank} CPUOffloadPolicy is an OffloadPolicy:"
      f" {isinstance(CPUOffloadPolicy(), OffloadPolicy)}")
for policy in (OffloadPolicy(), CPUOffloadPolicy(pin_memory=False)):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 2))  # built on the CPU
    fully_shard(model[0], mesh=mesh, offload_policy=policy)
    fully_shard(model[2], mesh=mesh, offload_policy=policy)
    fully_shard(model, mesh=mesh, offload_policy=policy)
    seen = []
    model[0].register_forward_pre_hook(lambda m, args: seen.append(m.weight.device))
    # the input goes to the mesh's device
    loss = model(torch.ones(2, 4, device=device_type)).sum()
    loss.backward()
    weight = model[0].weight
    print(f"rank {rank} {type(policy).__name__}: shard on {weight.to_local().device},"
          f" gathered in forward on {seen[0]}, gradient shard on"
          f" {weight.grad.to_local().device}")
    del model, loss, weight

del mesh
gc.collect()  # FSDP's modules, hooks and graphs form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
