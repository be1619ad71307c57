"""A collective that one rank never joins: a timeout turns the hang into an error.

Rank 1 skips an all_reduce (in a real job: an `if` only some ranks take, or a rank stuck
in its data loader). Rank 0 waits in it until the group's timeout, then raises. The
default timeout is 30 minutes for gloo; the doomed all_reduce runs in a group made with
3 seconds. A group in which a collective timed out cannot be used again, so the example
ends on the default group, which stayed healthy.

Run: torchrun --standalone --nproc-per-node=2 collective_timeout.py
Timeout: 60
"""
import re
import time
from datetime import timedelta

import torch
import torch.distributed as dist

# timeout= here is for the default group only; new_group() does not inherit it
dist.init_process_group("gloo", timeout=timedelta(minutes=5))
rank = dist.get_rank()
doomed = dist.new_group(timeout=timedelta(seconds=3))

if rank == 0:
    start = time.monotonic()
    try:
        dist.all_reduce(torch.ones(1), group=doomed)  # rank 1 never calls it
    except RuntimeError as exc:
        waited = time.monotonic() - start
        # drop the "[/path/of/the/build/unbound_buffer.cc:NN] " prefix: it names the
        # build machine's source tree and changes between torch builds
        print(f"all_reduce raised {type(exc).__name__} after >= 3 s: {waited >= 3}")
        print(re.sub(r"^\[[^\]]*\] ", "", str(exc)))
else:
    print("rank 1 skipped the all_reduce and waits in the final barrier")

del doomed
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
