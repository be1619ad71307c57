"""The environment torchrun gives each worker (values that change from run to run are masked).

Run: torchrun --standalone --nproc-per-node=2 torchrun_env.py
"""
import os

import torch
import torch.distributed as dist

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
device_id = None
if os.environ.get("DEVICE", "cpu") == "cuda":
    device_id = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device_id)
dist.init_process_group(backend, device_id=device_id)

SHOWN = ["RANK", "LOCAL_RANK", "WORLD_SIZE", "LOCAL_WORLD_SIZE", "GROUP_RANK",
         "GROUP_WORLD_SIZE",
         "ROLE_NAME", "ROLE_RANK", "ROLE_WORLD_SIZE", "TORCHELASTIC_RESTART_COUNT",
         "TORCHELASTIC_MAX_RESTARTS", "TORCHELASTIC_USE_AGENT_STORE"]
MASKED = ["MASTER_ADDR", "MASTER_PORT", "TORCHELASTIC_RUN_ID"]  # differ between runs
for name in SHOWN:
    print(f"{name}={os.environ.get(name, '(not set)')}")
for name in MASKED:
    print(f"{name}={'<set>' if name in os.environ else '(not set)'}")
print(f"dist.get_node_local_rank() = {dist.get_node_local_rank()}")  # reads LOCAL_RANK
print(f"dist.is_torchelastic_launched() = {dist.is_torchelastic_launched()}")

dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
