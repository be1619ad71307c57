"""A parameter that gets no gradient makes DDP fail at the next step,
unless find_unused_parameters=True.

Run: torchrun --standalone --nproc-per-node=2 ddp_unused_parameters.py
Variants: gloo-cpu, nccl-cuda
"""
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
device_ids = [device.index] if device.type == "cuda" else None


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.used = nn.Linear(3, 1)
        self.unused = nn.Linear(3, 1)  # registered, but forward never calls it

    def forward(self, x):
        return self.used(x)


def train(model, steps=2):
    for step in range(steps):
        model(torch.ones(2, 3, device=device)).sum().backward()
        print(f"  step {step} done")


torch.manual_seed(0)
model = DDP(Net().to(device), device_ids=device_ids)
print("find_unused_parameters=False:")
try:
    train(model)
except RuntimeError as exc:
    lines = str(exc).splitlines()
    print("  RuntimeError:", lines[0].split(". ")[0] + ".")
    print("  " + next(line for line in lines if line.startswith("Parameter indices")))
del model  # drop the failed model before building the next one

model = DDP(Net().to(device), device_ids=device_ids, find_unused_parameters=True)
print("find_unused_parameters=True:")
train(model)
print("  grad of the unused layer:", model.module.unused.weight.grad)

del model  # free DDP before tearing down the process group it uses
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
