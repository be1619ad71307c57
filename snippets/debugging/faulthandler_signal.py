"""faulthandler.register(SIGUSR1): ask a hung rank for its Python stack, from outside.

Register the handler at the start of training; when a rank seems stuck, `kill -USR1
<pid>` makes it write the stack of every Python thread, and the rank goes on waiting.
Here rank 0 waits in recv(); rank 1 plays the person at the terminal: it sends SIGUSR1
until rank 0's stack shows the wait, then sends the tensor. The stack normally goes to
stderr; the example writes it to a file and prints it with the parts that change between
machines masked (addresses, paths, torch's line numbers).

Run: torchrun --standalone --nproc-per-node=2 faulthandler_signal.py
Timeout: 60
"""
import faulthandler
import os
import re
import signal
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
# rank 0's pid and stack file, for rank 1 (both ranks run on this machine)
where = [None]
if rank == 0:  # register before rank 1 can send SIGUSR1: by default it ends the process
    where = [(os.getpid(), os.path.join(tempfile.mkdtemp(), "stack.txt"))]
    file = open(where[0][1], "w")
    faulthandler.register(signal.SIGUSR1, file=file)  # all_threads=True by default
dist.broadcast_object_list(where, src=0)
pid, path = where[0]

if rank == 0:
    with file:
        tensor = torch.zeros(1)
        dist.recv(tensor, src=1)  # hangs here until rank 1 sends
        faulthandler.unregister(signal.SIGUSR1)
    with open(path) as file:
        dumps = file.read()  # one dump per SIGUSR1 rank 1 sent; the last shows recv
    print(f"received {tensor.item()}; the stack SIGUSR1 wrote:\n{masked(dumps)}")
    os.remove(path)
    os.rmdir(os.path.dirname(path))
else:
    while True:  # what `kill -USR1 <pid>` does, until the stack shows rank 0 in recv
        os.kill(pid, signal.SIGUSR1)
        time.sleep(0.5)
        with open(path) as file:
            stack = masked(file.read()).splitlines()
        # the innermost frame must be recv itself, not the irecv it calls first
        if stack[1:2] and stack[1].endswith(" in recv"):
            break
    dist.send(torch.full((1,), 7.0), dst=0)
    print("rank 1 sent SIGUSR1 to rank 0, then the tensor")

dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
