"""dist.record_comm: give the collectives of a code region your own name in the profiler.

Inside `with dist.record_comm(name):` each collective's Work takes that name as its profiling
title, so a profiler trace says which part of the program a collective came from. On gloo, as
recorded here, the named event is added on the calling thread; gloo still records its own
event (gloo:all_reduce) on the thread that runs the operation.

Run: torchrun --standalone --nproc-per-node=2 record_comm.py
"""
import os

# The profiler's tracing library (Kineto) logs its start and stop on stderr; 6 silences it.
os.environ.setdefault("KINETO_LOG_LEVEL", "6")

import torch  # noqa: E402
import torch.distributed as dist  # noqa: E402
# Before init_process_group: imported later (the profiler imports it), it keeps a reference
# to the default group, and destroy_process_group() cannot free it (torch 2.15).
import torch.distributed.nn  # noqa: E402, F401
from torch.profiler import ProfilerActivity, profile  # noqa: E402

dist.init_process_group("gloo")
rank = dist.get_rank()
tensor = torch.ones(4)

with profile(activities=[ProfilerActivity.CPU]) as prof:
    dist.all_reduce(tensor)  # the backend's own name
    with dist.record_comm("grads: all_reduce"):
        dist.all_reduce(tensor)
        dist.broadcast(tensor, src=0)  # every collective in the block takes the name

events = sorted(prof.events(), key=lambda event: event.time_range.start)
print(f"rank {rank} profiler events, in order:")
for event in events:
    print(f"rank {rank}   {event.name}")

dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
