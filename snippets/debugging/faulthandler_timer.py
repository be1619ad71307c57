"""faulthandler.dump_traceback_later: a hung rank writes its own stack after N seconds.

Arm it before the step that might hang; if the step has not finished in time, a watchdog
thread writes the stack of every Python thread, showing where the rank waits. Here rank
0 waits in an all_reduce that rank 1 joins late: only once rank 0's stack has been
written. The stack normally goes to stderr; the example writes it to a file and prints
it with the parts that change between machines masked (addresses, paths, torch's line
numbers).

Run: torchrun --standalone --nproc-per-node=2 faulthandler_timer.py
Timeout: 60
"""
import faulthandler
import os
import re
import tempfile
import time

import torch
import torch.distributed as dist

SCRIPT = os.path.abspath(__file__)


def masked(dump):
    """This script's thread in the last dump, from the innermost frame outwards."""
    blocks = re.split(r"\n+(?=(?:Current thread|Thread) 0x)", dump.strip())
    lines = []
    for block in [b for b in blocks if SCRIPT in b][-1:]:  # other threads: skipped
        for line in block.splitlines():
            frame = re.match(r'  File "(.*)", line (\d+) in (.*)', line)
            if not frame:
                lines.append(re.sub(r"0x[0-9a-f]+", "0x…", line))
                continue
            path, number, function = frame.groups()
            if path == SCRIPT:
                name = os.path.basename(path)
                lines.append(f'  File "{name}", line {number} in {function}')
                if function == "<module>":
                    break  # below it: whatever started the script
            else:  # torch's own files: the path from "torch/" on, no line number
                inside = path[path.rfind("torch/"):]
                lines.append(f'  File "…/{inside}" in {function}')
    return "\n".join(lines)


dist.init_process_group("gloo")
rank = dist.get_rank()
path = [os.path.join(tempfile.mkdtemp(), "stack.txt") if rank == 0 else None]
dist.broadcast_object_list(path, src=0)  # for rank 1: both ranks run on this machine
path = path[0]

if rank == 0:
    with open(path, "w") as file:
        faulthandler.dump_traceback_later(2, file=file)  # unless cancelled within 2 s
        dist.all_reduce(torch.ones(1))  # hangs here until rank 1 arrives
        faulthandler.cancel_dump_traceback_later()  # also waits for a dump under way
    with open(path) as file:
        print(f"stack written after 2 s:\n{masked(file.read())}")
    os.remove(path)
    os.rmdir(os.path.dirname(path))
else:
    while not os.path.exists(path) or os.path.getsize(path) == 0:
        time.sleep(0.1)  # the "hang": rank 1 joins only once rank 0's stack is out
    dist.all_reduce(torch.ones(1))
    print("rank 1 joined the all_reduce after rank 0's stack was written")

dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
