"""TORCH_DISTRIBUTED_DEBUG=DETAIL turns a collective mismatch between ranks into a clear error.

Here rank 1 passes a tensor of another shape: a bug that, with the debug level OFF, makes both
ranks hang until the process group times out (30 minutes by default). At DETAIL, every
collective is first checked across ranks, and both ranks raise an error describing the mismatch.

Run: torchrun --standalone --nproc-per-node=2 debug_detail.py
"""
import os

import torch
import torch.distributed as dist

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
print(f"debug level at start: {dist.get_debug_level()}")
os.environ["TORCH_DISTRIBUTED_DEBUG"] = "DETAIL"  # usually set on the command line instead
dist.set_debug_level_from_env()  # read at import; re-read it since the script set it late
if os.environ.get("DEVICE", "cpu") == "cuda":
    device = torch.device("cuda", int(os.environ["LOCAL_RANK"]) % torch.cuda.device_count())
    torch.cuda.set_device(device)
else:
    device = torch.device("cpu")
# the level must be set before the group is created
dist.init_process_group(backend, device_id=device if device.type == "cuda" else None)
rank = dist.get_rank()
print(f"debug level now:      {dist.get_debug_level()}")

tensor = torch.zeros(rank + 1, device=device)  # the bug: shape [1] on rank 0, [2] on rank 1
try:
    dist.all_reduce(tensor)
except RuntimeError as exc:
    first, _, aspects = str(exc).partition(".Collectives differ in the following aspects:")
    print(first.split(". ")[0] + ".")
    print("Collectives differ in the following aspects: " + " ".join(aspects.split()))

dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
