"""set_reduce_scatter_unused_params: experts that some ranks skip, wrong gradients without it.

Run: torchrun --standalone --nproc-per-node=2 fsdp2_unused_params.py
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


class Experts(nn.Module):
    """Two expert layers; a router (not shown) picks one for a whole batch."""

    def __init__(self):
        super().__init__()
        self.experts = nn.ModuleList(nn.Linear(4, 4, bias=False) for _ in range(2))

    def forward(self, x, expert):
        return self.experts[expert](x)


mesh = init_device_mesh(device_type, (2,))
torch.manual_seed(0)
reference = Experts().to(device_type)
models = [copy.deepcopy(reference) for _ in range(2)]
batches = torch.randn(2, 3, 4, device=device_type)  # the same on every rank
for r in range(2):  # one process: rank r's batch goes to expert r
    reference(batches[r], r).sum().backward()
expected = [p.grad / 2 for p in reference.parameters()]  # FSDP averages over 2 ranks
# rank 0's experts.0 gradient and rank 1's experts.1 gradient, averaged
mixed = (expected[0] + expected[1]).chunk(2)[rank]

for model, unused in zip(models, (False, True)):
    fully_shard(model, mesh=mesh)
    if unused:
        model.set_reduce_scatter_unused_params(True)
    model(batches[rank], rank).sum().backward()  # this rank uses expert `rank` only
    label = "set_reduce_scatter_unused_params(True)" if unused else "default"
    for name, param, full in zip(("experts.0", "experts.1"), model.parameters(), expected):
        if param.grad is None:
            print(f"rank {rank} {label}: {name} gradient None")
            continue
        local = param.grad.to_local()
        print(f"rank {rank} {label}: {name} gradient right: "
              f"{torch.allclose(local, full.chunk(2)[rank])},"
              f" mixes the two experts: {torch.allclose(local, mixed)}")

del models, model, param, local, mesh
gc.collect()  # FSDP's modules, hooks and graphs form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
