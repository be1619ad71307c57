"""ZeroRedundancyOptimizer: each rank keeps the optimizer state (here Adam's exp_avg and
exp_avg_sq) of its own share of the parameters only, and broadcasts its updated share after
step(). DDP still keeps a full copy of the model on every rank.

Run: torchrun --standalone --nproc-per-node=2 zero_optimizer.py
Variants: gloo-cpu, nccl-cuda
"""
import os

import torch
import torch.distributed as dist
# Before init_process_group: imported later (as DDP and optimizers do), it keeps a reference
# to the default group, and destroy_process_group() cannot free it (torch 2.15).
import torch.distributed.nn  # noqa: F401
from torch import nn
from torch.distributed.optim import ZeroRedundancyOptimizer
from torch.nn.parallel import DistributedDataParallel as DDP

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
if os.environ.get("DEVICE", "cpu") == "cuda":
    device = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device)
else:
    device = torch.device("cpu")
dist.init_process_group(backend, device_id=device if device.type == "cuda" else None)
rank = dist.get_rank()

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 4))
model = DDP(net.to(device), device_ids=[device.index] if device.type == "cuda" else None)
optimizer = ZeroRedundancyOptimizer(model.parameters(), optimizer_class=torch.optim.Adam,
                                    lr=0.01)

torch.manual_seed(1 + rank)
x, y = torch.randn(8, 16, device=device), torch.randn(8, 4, device=device)
nn.functional.mse_loss(model(x), y).backward()
optimizer.step()  # updates this rank's share, then every rank receives the others' shares


def state_numel(opt):
    return sum(t.numel() for s in opt.state.values() for t in s.values() if t.dim() > 0)


total = sum(p.numel() for p in model.parameters())
print(f"parameters: {total}, Adam state if unsharded: {2 * total} values")
print(f"rank {rank} holds Adam state for {state_numel(optimizer.optim)} values")

# The parameters stay equal on every rank, as with a plain optimizer.
flat = torch.cat([p.detach().flatten() for p in model.parameters()]).cpu()
gathered = [torch.empty_like(flat) for _ in range(dist.get_world_size())]
dist.all_gather_object(gathered, flat)
print("parameters equal on all ranks:", all(torch.equal(g, flat) for g in gathered))

# Saving: first gather the shards of the state on one rank (a collective), then save there.
optimizer.consolidate_state_dict(to=0)
if rank == 0:
    full = optimizer.state_dict()
    print("consolidated state on rank 0:", len(full["state"]), "parameters' entries")

del model, optimizer  # free DDP before tearing down the process group it uses
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
