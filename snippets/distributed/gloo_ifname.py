"""GLOO_SOCKET_IFNAME picks the network interface(s) gloo uses; it is read when a group is made.

Normally it is set on the command line (GLOO_SOCKET_IFNAME=eth0 torchrun ...). This example sets
it from Python before each new_group to show a list of two interfaces (Linux's loopback
interface, lo, twice) and a misspelt name.

Run: torchrun --standalone --nproc-per-node=2 gloo_ifname.py
"""
import os
from datetime import timedelta

import torch
import torch.distributed as dist

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
if os.environ.get("DEVICE", "cpu") == "cuda":
    device = torch.device("cuda", int(os.environ["LOCAL_RANK"]) % torch.cuda.device_count())
    torch.cuda.set_device(device)
else:
    device = torch.device("cpu")
dist.init_process_group(backend, device_id=device if device.type == "cuda" else None)
rank = dist.get_rank()

os.environ["GLOO_SOCKET_IFNAME"] = "lo,lo"  # several interfaces: comma-separated
group = dist.new_group(backend="gloo")
tensor = torch.ones(2) * (rank + 1)
dist.all_reduce(tensor, group=group)
print(f"GLOO_SOCKET_IFNAME=lo,lo -> all_reduce gives {tensor.tolist()}")

os.environ["GLOO_SOCKET_IFNAME"] = "eht0"  # a typo
try:
    dist.new_group(backend="gloo", timeout=timedelta(seconds=5))
except RuntimeError as exc:
    print(f"GLOO_SOCKET_IFNAME=eht0 -> RuntimeError: {str(exc).split('] ')[-1]}")

del group  # a group handle kept alive would outlive destroy_process_group()
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
