"""TORCH_DISTRIBUTED_DEBUG=DETAIL: a dtype that differs between ranks, caught at once.

Rank 1 all-reduces an int64 tensor where rank 0 passes float32 (in a real job: a count
summed as `torch.tensor(n)` on one rank and `torch.tensor(n, dtype=torch.float)` on
another). The shapes agree, so without a check the ranks exchange bytes of different
sizes; at DETAIL the fingerprints differ in TensorDtypes and both ranks raise at once.
See peer_abort.py for what the same bug does with the debug level OFF.

Run: torchrun --standalone --nproc-per-node=2 mismatch_dtype.py
Timeout: 60
"""
import os
import re

import torch
import torch.distributed as dist

os.environ["TORCH_DISTRIBUTED_DEBUG"] = "DETAIL"  # usually set on the command line
dist.set_debug_level_from_env()  # read at import; re-read, since it was set late
dist.init_process_group("gloo")  # the level must be set before the group is created
rank = dist.get_rank()

dtype = torch.float32 if rank == 0 else torch.int64  # the bug
try:
    dist.all_reduce(torch.ones(2, dtype=dtype))
except RuntimeError as exc:
    print(str(exc).split(". ")[0] + ".")
    # each rank's fingerprint, without its long TensorDeviceTypes=... part
    pattern = r"Rank (\d+) is running collective: \w+\((.*?), TensorDev"
    for peer, fingerprint in re.findall(pattern, str(exc)):
        print(f"  rank {peer}: {fingerprint}")

dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
