"""init_process_group(store=...): hand it a key-value store you created yourself.

torchrun already serves a TCPStore at MASTER_ADDR:MASTER_PORT, so each rank connects to it as a
client (is_master=False). A PrefixStore keeps this program's keys apart from the launcher's.

Run: torchrun --standalone --nproc-per-node=2 init_store.py
Variants: gloo-cpu, nccl-cuda
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
rank, world_size = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
client = dist.TCPStore(os.environ["MASTER_ADDR"], int(os.environ["MASTER_PORT"]),
                       is_master=False, timeout=timedelta(seconds=30))
store = dist.PrefixStore("my_job", client)

# The store is a small key-value service shared by all ranks:
if rank == 0:
    store.set("config", "lr=0.1")  # one rank writes ...
store.wait(["config"])  # ... the others block until the key exists (get() waits too)
print(f"get('config') -> {store.get('config').decode()}")
store.add("arrived", 1)  # an atomic counter

dist.init_process_group(backend, store=store, rank=rank, world_size=world_size,
                        device_id=device if device.type == "cuda" else None)
dist.barrier()
print(f"after the barrier, 'arrived' = {store.add('arrived', 0)}")  # add(key, 0) reads a counter

tensor = torch.tensor([rank + 1], device=device)
dist.all_reduce(tensor)
print(f"joined through a TCPStore as rank {dist.get_rank()} of {dist.get_world_size()}; "
      f"all_reduce gives {tensor.item()}")

dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
