"""SequenceParallel: a LayerNorm between a row-wise and a column-wise layer, on sequence shards.

Run: torchrun --standalone --nproc-per-node=2 tp_sequence_parallel.py
Variants: gloo-cpu, nccl-cuda
"""
import copy
import gc
import os

import torch
import torch.distributed as dist
# Before init_process_group: imported later (as DTensor does), it keeps a reference
# to the default group, and destroy_process_group() cannot free it (torch 2.15).
import torch.distributed.nn  # noqa: F401
from torch import nn
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import Shard
from torch.distributed.tensor.parallel import (
    ColwiseParallel,
    RowwiseParallel,
    SequenceParallel,
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


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.up1 = nn.Linear(4, 8)
        self.down1 = nn.Linear(8, 4)
        self.norm = nn.LayerNorm(4)
        self.up2 = nn.Linear(4, 8)
        self.down2 = nn.Linear(8, 4)

    def forward(self, x):
        h = self.down1(torch.relu(self.up1(x)))
        return self.down2(torch.relu(self.up2(self.norm(h))))


mesh = init_device_mesh(device_type, (2,))
torch.manual_seed(0)  # the same full weights on every rank
model = Block().to(device_type)
reference = copy.deepcopy(model)
parallelize_module(model, mesh, {
    "up1": ColwiseParallel(),
    # reduce-scatter instead of all-reduce: each rank keeps half of the sequence
    "down1": RowwiseParallel(output_layouts=Shard(1)),
    "norm": SequenceParallel(),  # weights replicated, input sharded on dim 1
    # all-gather the sequence back before the column-wise split
    "up2": ColwiseParallel(input_layouts=Shard(1)),
    "down2": RowwiseParallel(),
})
print(f"rank {rank} norm.weight: {type(model.norm.weight).__name__}"
      f" {model.norm.weight.placements}")


def show(module, args, output):
    for what, t in (("input", args[0]), ("output", output)):
        print(f"rank {rank} norm {what}: {t.placements}, global {list(t.shape)},"
              f" local {list(t.to_local().shape)}")


model.norm.register_forward_hook(show)  # sees the input SequenceParallel's hook made

torch.manual_seed(1)
x = torch.randn(2, 6, 4, device=device_type)  # (batch, sequence, hidden), same on every rank
out = model(x)
expected = reference(x)
out.sum().backward()
expected.sum().backward()
print(f"rank {rank} output equals the reference: {torch.allclose(out, expected)}")
grad = model.norm.weight.grad
same = torch.allclose(grad.full_tensor(), reference.norm.weight.grad)
print(f"rank {rank} norm.weight.grad: {grad.placements}, equals the reference: {same}")

del model, out, grad, mesh
gc.collect()  # modules, hooks and graphs can form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
