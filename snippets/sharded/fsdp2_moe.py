"""shard_placement_fn: shard a mixture of experts' grouped weights on dim 1 instead of dim 0.

Run: torchrun --standalone --nproc-per-node=2 fsdp2_moe.py
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
from torch.distributed.tensor import Shard

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
device_type = os.environ.get("DEVICE", "cpu")
device_id = None
if device_type == "cuda":
    device_id = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device_id)
dist.init_process_group(backend, device_id=device_id)
rank = dist.get_rank()


class MoE(nn.Module):
    """Top-1 routing; one weight tensor holds every expert (num_experts first)."""

    def __init__(self, dim=4, hidden=6, num_experts=3):
        super().__init__()
        self.router = nn.Linear(dim, num_experts, bias=False)
        self.w_in = nn.Parameter(torch.randn(num_experts, dim, hidden) / dim**0.5)
        self.w_out = nn.Parameter(torch.randn(num_experts, hidden, dim) / hidden**0.5)

    def forward(self, x):
        gate, expert = self.router(x).softmax(dim=-1).max(dim=-1)  # one expert per token
        hidden = torch.relu(torch.bmm(x.unsqueeze(1), self.w_in[expert]))
        return torch.bmm(hidden, self.w_out[expert]).squeeze(1) * gate.unsqueeze(-1)


def experts_on_dim1(param):
    return Shard(1) if param.ndim == 3 else None  # None: the default, Shard(0)


mesh = init_device_mesh(device_type, (2,))
torch.manual_seed(0)
reference = nn.Sequential(MoE(), nn.Linear(4, 2)).to(device_type)
for placement_fn in (None, experts_on_dim1):
    reference.zero_grad()
    model = copy.deepcopy(reference)
    fully_shard(model[0], mesh=mesh, shard_placement_fn=placement_fn)
    fully_shard(model, mesh=mesh)
    label = "default" if placement_fn is None else "experts on dim 1"
    for name, param in model[0].named_parameters():
        print(f"rank {rank} {label}: {name} {list(param.shape)} {param.placements[0]!r},"
              f" local {list(param.to_local().shape)}")

    torch.manual_seed(1)
    batch = torch.randn(8, 4, device=device_type)  # the same 8 rows on every rank
    model(batch[4 * rank:4 * rank + 4]).pow(2).mean().backward()  # this rank's half
    reference(batch).pow(2).mean().backward()  # one process, all 8 rows
    same = all(torch.allclose(p.grad.full_tensor(), q.grad, atol=1e-6)
               for p, q in zip(model.parameters(), reference.parameters()))
    print(f"rank {rank} {label}: gradients equal one process's: {same}")
    del model


def columns(param):
    return Shard(1) if param.ndim == 2 else None


try:  # a Linear(5, 4) weight has 5 columns: not divisible by 2 ranks
    fully_shard(nn.Linear(5, 4).to(device_type), mesh=mesh, shard_placement_fn=columns)
except NotImplementedError as error:
    print(f"rank {rank} NotImplementedError: {error}")

del mesh
gc.collect()  # FSDP's modules, hooks and graphs form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
