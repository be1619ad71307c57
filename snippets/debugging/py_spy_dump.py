"""py-spy dump: read a hung rank's Python stack from outside, without changing the script.

`py-spy dump --pid <pid>` attaches to a running process and prints the stack of each of its
Python threads; the process goes on as if nothing happened. It needs permission to trace the
process: the same user, and where the kernel restricts ptrace (Yama) or in a container, root
or the SYS_PTRACE capability. Here rank 0 waits in recv(); rank 1 plays the person at the
terminal: it runs py-spy on rank 0 until the stack shows the wait, then sends the tensor.
Needs py-spy (`pip install py-spy`). The parts that change between machines are masked
(pids, thread states, torch's line numbers).

Run: torchrun --standalone --nproc-per-node=2 py_spy_dump.py
Timeout: 60
Needs: ptrace
"""
import os
import re
import shutil
import subprocess
import sys
import time

import torch
import torch.distributed as dist


def py_spy():
    """The py-spy program: on PATH, or next to this Python (a virtual environment's bin/)."""
    found = shutil.which("py-spy") or shutil.which("py-spy", path=os.path.dirname(sys.executable))
    if found is None:
        sys.exit("py-spy is not installed: pip install py-spy")
    return found


def main_thread(dump):
    """The main thread's stack from a `py-spy dump`, masked."""
    block = re.search(r'^Thread \d+ \(\w+\): "MainThread"\n((?: {4}.*\n?)*)', dump, re.M)
    lines = ['Thread <pid> (<state>): "MainThread"']
    for frame in block.group(1).splitlines():
        function, path, number = re.match(r" {4}(.*) \((.*):(\d+)\)", frame).groups()
        if "torch/" in path:  # torch's own files: no line number
            lines.append(f"    {function} ({path[path.rfind('torch/'):]})")
        else:
            lines.append(f"    {function} ({os.path.basename(path)}:{number})")
        if function == "<module>":
            break  # below it: whatever started the script
    return "\n".join(lines)


dist.init_process_group("gloo")
rank = dist.get_rank()
pids = [None, None]
dist.all_gather_object(pids, os.getpid())  # both ranks run on this machine

if rank == 0:
    tensor = torch.zeros(1)
    dist.recv(tensor, src=1)  # hangs here until rank 1 sends
    print(f"received {tensor.item()}")
else:
    while True:  # what `py-spy dump --pid <pid>` at the terminal does
        dump = subprocess.run([py_spy(), "dump", "--pid", str(pids[0])],
                              capture_output=True, text=True, check=True).stdout
        # the innermost frame must be recv itself, not the irecv it calls first
        if re.search(r'"MainThread"\n {4}recv \(', dump):
            break
        time.sleep(0.2)
    print(f"py-spy dump --pid <rank 0's pid>, main thread:\n{main_thread(dump)}")
    dist.send(torch.full((1,), 7.0), dst=0)

dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
