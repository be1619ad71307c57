"""Activation checkpointing inside FSDP2 blocks: same losses and gradients, activations
recomputed.

Run: torchrun --standalone --nproc-per-node=2 fsdp2_activation_checkpointing.py
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
from torch.utils.checkpoint import checkpoint

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
device_type = os.environ.get("DEVICE", "cpu")
device_id = None
if device_type == "cuda":
    device_id = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device_id)
dist.init_process_group(backend, device_id=device_id)
rank = dist.get_rank()

mesh = init_device_mesh(device_type, (2,))
calls = {"forward": 0}


class Block(nn.Module):
    def __init__(self, use_checkpoint):
        super().__init__()
        self.use_checkpoint = use_checkpoint
        self.mlp = nn.Sequential(nn.Linear(4, 8), nn.GELU(), nn.Linear(8, 4))

    def body(self, x):
        calls["forward"] += 1
        return x + self.mlp(x)

    def forward(self, x):
        if self.use_checkpoint:  # keeps only x; body runs again in backward
            return checkpoint(self.body, x, use_reentrant=False)
        return self.body(x)


def train(use_checkpoint):
    torch.manual_seed(0)
    model = nn.Sequential(*(Block(use_checkpoint) for _ in range(3)), nn.Linear(4, 1))
    for block in model[:3]:
        fully_shard(block, mesh=mesh)
    fully_shard(model, mesh=mesh)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    torch.manual_seed(1 + rank)  # each rank its own batches
    losses = []
    calls["forward"] = 0
    for _ in range(2):
        loss = model(torch.randn(8, 4, device=device_type)).pow(2).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        losses.append(loss.item())
    loss = model(torch.randn(8, 4, device=device_type)).pow(2).mean()
    loss.backward()  # a third batch: keep its gradients to compare
    grads = [p.grad.full_tensor() for p in model.parameters()]
    print(f"rank {rank} checkpoint={use_checkpoint}: losses"
          f" {', '.join(f'{x:.4f}' for x in losses)}, block bodies run {calls['forward']}")
    del model, optimizer, loss
    return losses, grads


plain_losses, plain_grads = train(False)
ckpt_losses, ckpt_grads = train(True)
same = plain_losses == ckpt_losses and all(
    torch.allclose(a, b, atol=1e-6) for a, b in zip(plain_grads, ckpt_grads))
print(f"rank {rank} same losses and gradients with checkpointing: {same}")

del plain_grads, ckpt_grads, mesh
gc.collect()  # FSDP's modules, hooks and graphs form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
