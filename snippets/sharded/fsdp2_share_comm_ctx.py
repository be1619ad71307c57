"""share_comm_ctx: several FSDP2 roots (pipeline stages) share one communication context.

Run: torchrun --standalone --nproc-per-node=2 fsdp2_share_comm_ctx.py
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
from torch.distributed.fsdp import fully_shard, share_comm_ctx

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
device_type = os.environ.get("DEVICE", "cpu")
device_id = None
if device_type == "cuda":
    device_id = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device_id)
dist.init_process_group(backend, device_id=device_id)
rank = dist.get_rank()
mesh = init_device_mesh(device_type, (2,))


def train(share):
    torch.manual_seed(0)  # the same full stages every time, on every rank
    stages = [nn.Sequential(nn.Linear(4, 6), nn.ReLU()), nn.Linear(6, 2)]
    for stage in stages:
        fully_shard(stage.to(device_type), mesh=mesh)  # each stage its own FSDP root
    if share:
        share_comm_ctx(stages)  # the second stage now uses the first one's streams
    params = [p for stage in stages for p in stage.parameters()]
    optimizer = torch.optim.SGD(params, lr=0.1)
    torch.manual_seed(1 + rank)  # each rank trains on its own batch
    x = torch.randn(8, 4, device=device_type)
    y = torch.randn(8, 2, device=device_type)
    losses = []
    for _ in range(3):
        loss = nn.functional.mse_loss(stages[1](stages[0](x)), y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        losses.append(round(loss.item(), 6))
    return losses


separate, shared = train(share=False), train(share=True)
print(f"rank {rank} separate contexts: {separate}")
print(f"rank {rank} shared context:    {shared}, equal: {separate == shared}")

del mesh
gc.collect()  # FSDP's modules, hooks and graphs form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
