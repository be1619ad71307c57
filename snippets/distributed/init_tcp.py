"""init_process_group with a tcp:// URL: an address every rank can reach, and an explicit rank.

Under torchrun the launcher already runs a TCPStore at MASTER_ADDR:MASTER_PORT (and sets
TORCHELASTIC_USE_AGENT_STORE=True), so every rank joins it as a client. Started by hand
without torchrun, rank 0 would host the store at that address instead.

Run: torchrun --standalone --nproc-per-node=2 init_tcp.py
Variants: gloo-cpu, nccl-cuda
Output: same on all devices
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
rank, world_size = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
# not printed: the port varies
url = f"tcp://{os.environ['MASTER_ADDR']}:{os.environ['MASTER_PORT']}"
dist.init_process_group(backend, init_method=url, rank=rank, world_size=world_size,
                        device_id=device if device.type == "cuda" else None)

tensor = torch.tensor([rank + 1], device=device)
dist.all_reduce(tensor)
print(f"joined through tcp:// as rank {dist.get_rank()} of {dist.get_world_size()}; "
      f"all_reduce gives {tensor.item()}")

dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
