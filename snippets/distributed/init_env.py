"""init_process_group with env:// (the default): everything it needs comes from the environment.

Run: torchrun --standalone --nproc-per-node=2 init_env.py
Variants: gloo-cpu, nccl-cuda, nccl-cuda-1
"""
import os

import torch
import torch.distributed as dist

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
print(f"is_available(): {dist.is_available()}")  # False on builds without distributed support
print(f"is_{backend}_available(): {getattr(dist, f'is_{backend}_available')()}")
print(f"is_initialized() before: {dist.is_initialized()}")

# What env:// reads (torchrun sets all of these; MASTER_* values change from run to run):
print(f"RANK={os.environ['RANK']} WORLD_SIZE={os.environ['WORLD_SIZE']} "
      f"MASTER_ADDR and MASTER_PORT set: {'MASTER_ADDR' in os.environ and 'MASTER_PORT' in os.environ}")

if os.environ.get("DEVICE", "cpu") == "cuda":
    device = torch.device("cuda", int(os.environ["LOCAL_RANK"]) % torch.cuda.device_count())
    torch.cuda.set_device(device)
else:
    device = None
dist.init_process_group(backend, init_method="env://", device_id=device)  # env:// is the default

print(f"is_initialized() after: {dist.is_initialized()}")
print(f"get_backend(): {dist.get_backend()!r}, get_rank(): {dist.get_rank()}, "
      f"get_world_size(): {dist.get_world_size()}")
print(f"Backend('GLOO') == 'gloo': {dist.Backend('GLOO') == 'gloo'}")
try:
    dist.init_process_group(backend, device_id=device)
except ValueError as exc:
    print(f"a second init_process_group: ValueError: {exc}")

dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()  # frees the group's connections and threads before exit
print(f"is_initialized() after destroy: {dist.is_initialized()}")
