"""TORCH_DISTRIBUTED_DEBUG=DETAIL: ranks running different collectives get an error.

Rank 0 calls all_reduce where rank 1 calls broadcast (in a real job: an `if rank == 0`
around a collective, or code paths that diverge). With the debug level OFF this hangs
until the timeout. At DETAIL, every collective is first checked across ranks: each rank
sends a fingerprint (sequence number, operation, shapes, dtypes) and both ranks raise,
naming what each rank was running. Nothing ran, so the group stays usable.

Run: torchrun --standalone --nproc-per-node=2 mismatch_op.py
Variants: gloo-cpu, nccl-cuda
Timeout: 60
"""
import os
import re

import torch
import torch.distributed as dist

os.environ["TORCH_DISTRIBUTED_DEBUG"] = "DETAIL"  # usually set on the command line
dist.set_debug_level_from_env()  # read at import; re-read, since it was set late
backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
if os.environ.get("DEVICE", "cpu") == "cuda":
    device = torch.device("cuda", int(os.environ["LOCAL_RANK"]) % torch.cuda.device_count())
    torch.cuda.set_device(device)
else:
    device = torch.device("cpu")
# the level must be set before the group is created
dist.init_process_group(backend, device_id=device if device.type == "cuda" else None)
rank = dist.get_rank()
print(f"debug level: {dist.get_debug_level()}")

tensor = torch.ones(1, device=device)
try:
    if rank == 0:
        dist.all_reduce(tensor)
    else:
        dist.broadcast(tensor, src=0)  # the bug: not the collective rank 0 runs
except RuntimeError as exc:
    print(str(exc).split(". ")[0] + ".")
    # each rank's fingerprint, without its long TensorDeviceTypes=... part
    pattern = r"Rank (\d+) is running collective: \w+\((.*?), TensorDev"
    for peer, fingerprint in re.findall(pattern, str(exc)):
        print(f"  rank {peer}: {fingerprint}")

dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
