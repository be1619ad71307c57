"""Every dist.ReduceOp with all_reduce: float ops, bitwise ops on integers, and two failures.

The last lines show, on purpose, the FutureWarning of the old spelling dist.reduce_op: the
warning is caught and printed to stdout.

Run: torchrun --standalone --nproc-per-node=2 reduce_ops.py
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

values = torch.tensor([1.0, 2.0, 3.0], device=device) * (rank + 1)  # rank 1 holds twice rank 0's
print(f"float input: {values.tolist()}")
for op in ["SUM", "AVG", "PRODUCT", "MIN", "MAX"]:
    tensor = values.clone()  # all_reduce works in place
    dist.all_reduce(tensor, op=getattr(dist.ReduceOp, op))
    print(f"{op:<7} {tensor.tolist()}")

bits = torch.tensor([0b1100, 0b1010][rank], device=device)  # BAND/BOR/BXOR need integers
print(f"int input:   {bits.item():04b}")
for op in ["BAND", "BOR", "BXOR"]:
    tensor = bits.clone()
    dist.all_reduce(tensor, op=getattr(dist.ReduceOp, op))
    print(f"{op:<7} {tensor.item():04b}")

# gloo re-raises a failed collective's error in a later barrier of the same group, so the
# call that fails gets a group of its own.
scratch = dist.new_group()
tensor = values.clone()
try:
    dist.all_reduce(tensor, op=dist.ReduceOp.PREMUL_SUM(2.0), group=scratch)  # sum of 2 * x
    print(f"PREMUL_SUM(2.0) {tensor.tolist()}")
except RuntimeError as exc:
    print(f"PREMUL_SUM(2.0): RuntimeError: {exc}")

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(f"dist.reduce_op.SUM == dist.ReduceOp.SUM: {dist.reduce_op.SUM == dist.ReduceOp.SUM}")
print(f"{caught[0].category.__name__}: {caught[0].message}")

del scratch  # a group handle kept alive would outlive destroy_process_group()
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
