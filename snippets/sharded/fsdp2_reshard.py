"""fully_shard(reshard_after_forward=...): what a layer holds after forward.

Run: torchrun --standalone --nproc-per-node=2 fsdp2_reshard.py
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


def describe(param):
    kind = type(param).__name__
    return f"{kind} {list(param.shape)}" + (
        f", local {list(param.to_local().shape)}" if kind == "DTensor" else "")


for reshard in (True, False):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 2)).to(device_type)
    fully_shard(model[0], mesh=mesh, reshard_after_forward=reshard)
    fully_shard(model[2], mesh=mesh, reshard_after_forward=reshard)
    fully_shard(model, mesh=mesh)
    loss = model(torch.ones(2, 4, device=device_type)).sum()
    # between forward and backward: sharded again (True) or still gathered (False)
    print(f"rank {rank} reshard_after_forward={reshard}, after forward:"
          f" {describe(model[0].weight)}")
    loss.backward()  # True: all-gathers model[0] again; False: reuses the full weight
    print(f"rank {rank} reshard_after_forward={reshard}, after backward:"
          f" {describe(model[0].weight)}")
    del model, loss

del mesh
gc.collect()  # FSDP's modules, hooks and graphs form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
