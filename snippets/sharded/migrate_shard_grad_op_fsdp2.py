"""Migration pair, FSDP2 side: reshard_after_forward=False, the equivalent of SHARD_GRAD_OP.

Run: torchrun --standalone --nproc-per-node=2 migrate_shard_grad_op_fsdp2.py
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
device = torch.device("cpu")
if device_type == "cuda":
    torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
    device = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
dist.init_process_group(backend, device_id=device if device.type == "cuda" else None)
rank = dist.get_rank()

mesh = init_device_mesh(device_type, (2,))
torch.manual_seed(0)  # the same model on every rank, and in the FSDP1 snippet of the pair
model = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 2)).to(device)
for layer in (model[0], model[2]):  # what ModuleWrapPolicy did: one unit per Linear
    fully_shard(layer, mesh=mesh, reshard_after_forward=False)  # the option of this pair
fully_shard(model, mesh=mesh, reshard_after_forward=False)  # then the root

optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
torch.manual_seed(1 + rank)  # each rank its own batch, the same in both snippets
x = torch.randn(8, 4, device=device)
y = torch.randn(8, 2, device=device)
for step in range(3):
    loss = nn.functional.mse_loss(model(x), y)
    if step == 0:  # between forward and backward: still gathered, full shape
        weight = model[0].weight
        print(f"rank {rank} after forward: 0.weight {type(weight).__name__} "
              f"{list(weight.shape)}")
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
    print(f"rank {rank} step {step} loss {loss.item():.6f}")

del model, optimizer, loss, weight, layer, mesh
gc.collect()  # FSDP's modules, hooks and graphs form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
