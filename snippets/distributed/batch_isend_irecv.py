"""dist.batch_isend_irecv: a ring in which every rank passes a value to its right neighbour.

After world_size - 1 steps every rank has seen every value: a hand-made ring all-reduce.

Run: torchrun --standalone --nproc-per-node=4 batch_isend_irecv.py
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
right, left = (rank + 1) % world, (rank - 1) % world


def ring_step(value):
    """Send value to the right neighbour; return what the left neighbour sent."""
    incoming = torch.zeros_like(value)
    ops = [dist.P2POp(dist.isend, value, right), dist.P2POp(dist.irecv, incoming, left)]
    for work in dist.batch_isend_irecv(ops):  # posts all the ops together
        work.wait()
    return incoming  # the Work handles die here, before destroy_process_group


value = torch.tensor([float(rank + 1)], device=device)  # ranks hold 1, 2, 3, 4
total = value.clone()
for step in range(world - 1):
    value = ring_step(value)  # pass on what arrived
    total += value
    print(f"step {step}: got {value.item()} from rank {left}, running total {total.item()}")

expected = torch.tensor([float(rank + 1)], device=device)
dist.all_reduce(expected)
print(f"ring total {total.item()} == all_reduce {expected.item()}: {bool(total == expected)}")

dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
