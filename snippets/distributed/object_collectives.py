"""Object collectives: send any picklable Python object, not just tensors.

Run: torchrun --standalone --nproc-per-node=2 object_collectives.py
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

world = dist.get_world_size()
mine = {"rank": rank, "words": ["zero", "one"][rank]}  # a different object on each rank

everyone = [None] * world
dist.all_gather_object(everyone, mine)  # fills the list on every rank
print(f"all_gather_object:     {everyone}")

config = [{"lr": 0.1, "epochs": 3}] if rank == 0 else [None]
dist.broadcast_object_list(config, src=0)  # in place: entry 0 replaced on rank 1
print(f"broadcast_object_list: {config}")

at_zero = [None] * world if rank == 0 else None
dist.gather_object(mine, at_zero, dst=0)  # only dst passes a list
print(f"gather_object:         {at_zero}")

work = [None]
dist.scatter_object_list(work, [f"task {i}" for i in range(world)] if rank == 0 else None, src=0)
print(f"scatter_object_list:   {work}")

dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
