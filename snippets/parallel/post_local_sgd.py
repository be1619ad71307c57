"""PostLocalSGDOptimizer: all-reduce gradients for a few warm-up steps, then train locally
and average the parameters only every `period` steps.

Two parts work together. DDP's post_localSGD_hook all-reduces the gradients for the first
start_localSGD_iter steps and then stops (post_local_gradient_allreduce=False: no all-reduce
at all afterwards). PostLocalSGDOptimizer runs the wrapped optimizer's step and then the
PeriodicModelAverager, which all-reduces the parameters themselves at its step warmup_steps
and every `period` steps after it. In between, the ranks' models drift apart.

Run: torchrun --standalone --nproc-per-node=2 post_local_sgd.py
Variants: gloo-cpu, nccl-cuda
Output: same on all devices
"""
import os

import torch
import torch.distributed as dist
# Before init_process_group: imported later (as DDP and optimizers do), it keeps a reference
# to the default group, and destroy_process_group() cannot free it (torch 2.15).
import torch.distributed.nn  # noqa: F401
from torch import nn
from torch.distributed.algorithms.ddp_comm_hooks.post_localSGD_hook import (
    PostLocalSGDState,
    post_localSGD_hook,
)
from torch.distributed.algorithms.model_averaging.averagers import PeriodicModelAverager
from torch.distributed.optim import PostLocalSGDOptimizer
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
model = DDP(nn.Linear(3, 1).to(device),
            device_ids=[device.index] if device.type == "cuda" else None)
state = PostLocalSGDState(process_group=None, subgroup=None, start_localSGD_iter=2,
                          post_local_gradient_allreduce=False)
model.register_comm_hook(state, post_localSGD_hook)
optimizer = PostLocalSGDOptimizer(
    optim=torch.optim.SGD(model.parameters(), lr=0.1),
    averager=PeriodicModelAverager(period=2, warmup_steps=2),
)

torch.manual_seed(1 + rank)
for step in range(6):
    optimizer.zero_grad()
    model(torch.randn(4, 3, device=device)).pow(2).mean().backward()
    optimizer.step()  # SGD step, then maybe average the parameters over the ranks
    weight = model.module.weight.detach()
    weights = [torch.empty_like(weight) for _ in range(dist.get_world_size())]
    dist.all_gather(weights, weight)
    print(f"step {step}: weights equal on all ranks: "
          f"{all(torch.equal(w, weight) for w in weights)}")

del model, optimizer, state  # free DDP before tearing down the process group it uses
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
