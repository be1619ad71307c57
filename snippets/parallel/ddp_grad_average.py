"""After backward() every rank holds the same gradient: the average of the ranks' own gradients.

Run: torchrun --standalone --nproc-per-node=2 ddp_grad_average.py
Variants: gloo-cpu, nccl-cuda
"""
import copy
import os

import torch
import torch.distributed as dist
# Before init_process_group: imported later (as DDP and optimizers do), it keeps a reference
# to the default group, and destroy_process_group() cannot free it (torch 2.15).
import torch.distributed.nn  # noqa: F401
from torch import nn
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
net = nn.Linear(3, 1).to(device)
alone = copy.deepcopy(net)  # a plain copy: the gradient this rank would get on its own
model = DDP(net, device_ids=[device.index] if device.type == "cuda" else None)

torch.manual_seed(1 + rank)  # each rank gets its own batch
x, y = torch.randn(4, 3, device=device), torch.randn(4, 1, device=device)
nn.functional.mse_loss(alone(x), y).backward()
nn.functional.mse_loss(model(x), y).backward()  # DDP all-reduces the gradients here

print("this rank's own gradient:", [round(g, 4) for g in alone.weight.grad.flatten().tolist()])
print("gradient after DDP:      ", [round(g, 4) for g in net.weight.grad.flatten().tolist()])
mean = alone.weight.grad.clone()
dist.all_reduce(mean, op=dist.ReduceOp.AVG)
print("equal to the mean over ranks:", torch.allclose(net.weight.grad, mean))

del model  # free DDP before tearing down the process group it uses
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
