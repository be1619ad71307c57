"""dist.all_gather_single: the tensor form of all_gather, into one preallocated tensor.

Also calls it by its old name, all_gather_into_tensor, which still works: the warnings that
call raises are caught and printed to stdout (some releases warn, others do not).

Run: torchrun --standalone --nproc-per-node=2 all_gather_single.py
Variants: gloo-cpu, nccl-cuda
"""
import os
import warnings

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
mine = torch.tensor([rank + 1, 10 * (rank + 1)], device=device)
flat = torch.zeros(world * 2, dtype=torch.int64, device=device)
dist.all_gather_single(flat, mine)  # rank r's tensor lands in flat[2r:2r+2]
print(f"flat:    {flat.tolist()}")

stacked = torch.zeros(world, 2, dtype=torch.int64, device=device)  # one row per rank
try:
    dist.all_gather_single(stacked, mine)  # the 2-D form of the official example
    print(f"stacked: {stacked.tolist()}")
except RuntimeError as exc:
    print(f"stacked: RuntimeError: {exc}")
dist.all_gather_single(stacked.view(-1), mine)  # a flat view works everywhere
print(f"view:    {stacked.tolist()}")

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    dist.all_gather_into_tensor(flat, mine)  # the name before 2.13, kept as an alias
print(f"old name: {flat.tolist()}, warnings: {[w.category.__name__ for w in caught]}")

dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
