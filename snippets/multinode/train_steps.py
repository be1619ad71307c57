"""A training loop for several machines that says how it ends: every step all-reduces across
the machines under a short timeout, so a lost machine becomes an error on every surviving rank
within seconds (the default timeout is 30 minutes), and each rank prints that error itself.

Run: torchrun --standalone --nproc-per-node=2 train_steps.py
Variants: gloo-cpu
"""
import datetime
import os
import time

import torch
import torch.distributed as dist

STEPS = 6
# Collectives of this group fail after 5 s without their peers (gloo's default: 30 minutes).
dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=5))
rank, node = dist.get_rank(), os.environ["GROUP_RANK"]

for step in range(STEPS):
    grad = torch.full((1024,), float(rank))
    try:
        dist.all_reduce(grad)  # every step waits for every rank of every machine
    except RuntimeError as exc:  # gloo names the peer it lost
        first = str(exc).splitlines()[0]
        print(f"rank {rank}: step {step} failed: {type(exc).__name__}: {first}\n", end="", flush=True)
        # Leave at once: a process that tears down a group whose peer is gone can abort
        # ("terminate called without an active exception", SIGABRT) instead of exiting 1.
        os._exit(1)
    # One write per line: the workers of a machine share torchrun's output.
    print(f"rank {rank}: node {node}, step {step} done\n", end="", flush=True)
    time.sleep(0.5)  # the step's computation

dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
