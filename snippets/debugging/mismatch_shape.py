"""Ranks that pass tensors of different shapes to one collective: with gloo, a hang.

Rank 0 all-reduces a tensor of shape [1], rank 1 one of shape [2] (in a real job: a
batch that came out shorter on one rank, or a model built differently). With the debug
level OFF, as by default, nothing checks this: the ranks wait for data that never fits,
until a timeout ends the wait (3 seconds on rank 0 here; 30 minutes by default). See
mismatch_op.py for TORCH_DISTRIBUTED_DEBUG=DETAIL, which turns such a mismatch into an
error at once.

Run: torchrun --standalone --nproc-per-node=2 mismatch_shape.py
Timeout: 60
"""
import re
from datetime import timedelta

import torch
import torch.distributed as dist

dist.init_process_group("gloo")
rank = dist.get_rank()
print(f"debug level: {dist.get_debug_level()}")
# a group of its own (see below). The timeout is each process's own setting: rank 1 gets
# a longer one so that rank 0 always times out first; with equal timeouts either rank
# may, and the other then reads "Connection closed by peer" as rank 1 does here
seconds = 3 if rank == 0 else 30
doomed = dist.new_group(timeout=timedelta(seconds=seconds))

tensor = torch.zeros(rank + 1)  # the bug: shape [1] on rank 0, [2] on rank 1
try:
    dist.all_reduce(tensor, group=doomed)
except RuntimeError as exc:
    # drop the "[/path/of/the/build/file.cc:NN] " prefix (the build's source tree) and
    # mask the peer's address and port, which change from run to run
    message = re.sub(r"^\[[^\]]*\] ", "", str(exc))
    message = re.sub(r"\[[0-9a-fA-F.:]+\]:\d+", "[ADDRESS]:PORT", message)
    print(f"{type(exc).__name__}: {message}")

del doomed  # a group in which a collective timed out cannot be used again
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
