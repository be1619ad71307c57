"""dist.monitored_barrier: rank 0 names the ranks that did not arrive.

Ranks 1 and 2 never reach the barrier. Rank 0 waits for them in turn, all within one
`timeout`, and raises naming the first rank missing; with `wait_all_ranks=True` it gives
each of them the whole `timeout` and names every rank missing. Only rank 0 reports;
the others, once they call it, block until rank 0 releases them. A timed-out
monitored_barrier leaves its group unusable, so each attempt here gets a group of its own.

Run: torchrun --standalone --nproc-per-node=3 monitored_barrier.py
Timeout: 60
"""
import os
import re
import sys
import tempfile
from datetime import timedelta

import torch.distributed as dist

dist.init_process_group("gloo")  # monitored_barrier is implemented for gloo only
rank = dist.get_rank()
first, every = dist.new_group(), dist.new_group()


def without_build_paths(text):
    # "[/path/of/the/build/file.cc:NN] " names the build machine's source tree
    text = re.sub(r"\[/[^\]]*\] ", "", text)
    # the inner wait gets what is left of `timeout`: at times a few ms less than 2000
    return re.sub(r"waiting \d+ms", "waiting <N>ms", text)


def stderr_of(call):
    """Run call(), return what it wrote to the process's stderr (C++ logs included)."""
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as capture:
        os.dup2(capture.fileno(), 2)
        try:
            call()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        capture.seek(0)
        return capture.read().decode()


for group, wait_all in ((first, False), (every, True)):
    if rank != 0:
        continue  # ranks 1 and 2 never arrive

    def barrier():
        try:
            dist.monitored_barrier(group, timeout=timedelta(seconds=2),
                                   wait_all_ranks=wait_all)
        except RuntimeError as exc:
            print(f"wait_all_ranks={wait_all}: {type(exc).__name__}:")
            for line in without_build_paths(str(exc)).splitlines():
                print(f"  {line.strip()}")

    log = stderr_of(barrier)
    # the same news, logged by C++ on stderr; the date and time become "…"
    for line in log.splitlines():
        print("  stderr: " + re.sub(r"\[E\d+ [\d:.]+ ", "[E… ", line))

if rank != 0:
    print(f"rank {rank} skipped both monitored barriers")
del first, every, group  # the loop variable holds a group too
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
