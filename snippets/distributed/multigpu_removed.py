"""The *_multigpu functions are gone: one process per GPU, and the plain collectives.

Run: torchrun --standalone --nproc-per-node=2 multigpu_removed.py
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

old = ["all_reduce_multigpu", "broadcast_multigpu", "reduce_multigpu",
       "all_gather_multigpu", "reduce_scatter_multigpu"]
print(f"still in torch.distributed: {[name for name in old if hasattr(dist, name)]}")

# Formerly one process drove several GPUs: all_reduce_multigpu([t_gpu0, t_gpu1]).
# Now each GPU has its own process (its own rank) and calls the ordinary collective.
tensor = torch.full((2,), float(rank + 1), device=device)
dist.all_reduce(tensor)
print(f"rank {rank} on {device.type}: {tensor.tolist()}")

dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
