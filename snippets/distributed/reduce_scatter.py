"""dist.reduce_scatter and reduce_scatter_single: reduce across ranks, rank i keeps chunk i.

Also calls the tensor form by its old name, reduce_scatter_tensor, which still works: the
warnings that call raises are caught and printed to stdout (some releases warn, others do not).

Run: torchrun --standalone --nproc-per-node=2 reduce_scatter.py
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
# List form: entry i of every rank's list is summed into rank i's output.
inputs = [torch.tensor([10 * i + rank], device=device) for i in range(world)]
out = torch.zeros(1, dtype=torch.int64, device=device)
dist.reduce_scatter(out, inputs, op=dist.ReduceOp.SUM)
print(f"list input:   {[t.tolist() for t in inputs]} -> {out.tolist()}")

# Tensor form: one input of world * n elements, split into world chunks of n.
flat = torch.arange(4, device=device) + 100 * rank
chunk = torch.zeros(2, dtype=torch.int64, device=device)
dist.reduce_scatter_single(chunk, flat, op=dist.ReduceOp.SUM)
print(f"tensor input: {flat.tolist()} -> {chunk.tolist()}")

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    dist.reduce_scatter_tensor(chunk, flat)  # the name before 2.13, kept as an alias
print(f"old name: {chunk.tolist()}, warnings: {[w.category.__name__ for w in caught]}")

dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
