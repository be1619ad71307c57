"""DDP runs one process per rank; each keeps its own model object, copied once at construction,
not on every step.

Run: torchrun --standalone --nproc-per-node=2 ddp_processes.py
Variants: gloo-cpu, nccl-cuda
"""
import os
import threading

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

pids = [None] * dist.get_world_size()
dist.all_gather_object(pids, os.getpid())
print("every rank is its own process:", len(set(pids)) == len(pids))

in_main_thread = []


class Counter(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(3, 2)
        self.calls = 0

    def forward(self, x):
        self.calls += 1  # runs on the module itself: DDP does not replicate it per step
        in_main_thread.append(threading.current_thread() is threading.main_thread())
        return self.linear(x)


torch.manual_seed(0)
net = Counter().to(device)
model = DDP(net, device_ids=[device.index] if device.type == "cuda" else None)
for step in range(3):
    model(torch.randn(4, 3, device=device)).sum().backward()

print("forward calls in the main thread:", sum(in_main_thread), "of", len(in_main_thread))
print("calls counted by model.module:", model.module.calls)
print("model.module is the module passed in:", model.module is net)

del model  # free DDP before tearing down the process group it uses
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
