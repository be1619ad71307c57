"""CPUOffloadPolicy on a CPU-only machine: pin_memory=True (the default) fails.

Run: torchrun --standalone --nproc-per-node=2 fsdp2_cpu_offload.py
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
from torch.distributed.fsdp import CPUOffloadPolicy, fully_shard

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
device_type = os.environ.get("DEVICE", "cpu")
device_id = None
if device_type == "cuda":
    device_id = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device_id)
dist.init_process_group(backend, device_id=device_id)
rank = dist.get_rank()

mesh = init_device_mesh(device_type, (2,))
for pin_memory in (True, False):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 2))
    policy = CPUOffloadPolicy(pin_memory=pin_memory)
    try:
        fully_shard(model[0], mesh=mesh, offload_policy=policy)
        fully_shard(model[2], mesh=mesh, offload_policy=policy)
        fully_shard(model, mesh=mesh, offload_policy=policy)
        loss = model(torch.ones(2, 4)).sum()
        loss.backward()
        print(f"rank {rank} pin_memory={pin_memory}: trains, loss {loss.item():.4f},"
              f" shard on {model[0].weight.to_local().device}")
        del loss
    except RuntimeError as exc:  # printed on purpose
        print(f"rank {rank} pin_memory={pin_memory}: RuntimeError: {exc}")
    del model

del mesh
gc.collect()  # FSDP's modules, hooks and graphs form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
