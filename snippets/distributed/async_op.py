"""async_op=True: a collective returns a Work handle at once; wait() before using the result.

Run: torchrun --standalone --nproc-per-node=2 async_op.py
Variants: gloo-cpu, nccl-cuda
"""
import os

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

tensor = torch.tensor([1.0, 2.0], device=device) * (rank + 1)
print(f"synchronous call returns: {dist.all_reduce(tensor)}")  # None; tensor already reduced

tensor = torch.tensor([1.0, 2.0], device=device) * (rank + 1)
work = dist.all_reduce(tensor, async_op=True)  # returns at once
print(f"async call returns: {type(work).__module__}.{type(work).__name__}")
local = (torch.arange(3.0, device=device) ** 2).sum()  # overlap: unrelated work meanwhile
work.wait()  # now tensor holds the sum
print(f"after wait(): {tensor.tolist()}, is_completed() = {work.is_completed()}")

future = dist.all_reduce(torch.ones(1, device=device), async_op=True).get_future()
print(f"through a Future: {future.wait()[0].tolist()}")  # wait() returns the output tensors

dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
