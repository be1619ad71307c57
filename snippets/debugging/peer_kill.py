"""A rank that dies mid-training: what its peers print ("Connection closed by peer").

Rank 1 is killed (SIGKILL, as the kernel's out-of-memory killer does) between two
all_reduce calls; rank 0's next collective fails at once. The example starts the two
ranks itself, as plain processes with the environment torchrun would give them, so that
it can end normally and show what each one printed and how it ended. Rank 0 starts its
step 1 only once rank 1 is dead; had it sent data to rank 1 first, it would read
"Connection reset by peer" instead, as in peer_abort.py.

Run: python peer_kill.py
Timeout: 120
"""
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile

WORKER = """
import os
import signal
import time

import torch
import torch.distributed as dist


def alive(pid):  # on Linux: the process exists and is not a zombie
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(") ", 1)[1][0] not in "ZX"
    except FileNotFoundError:
        return False


dist.init_process_group("gloo")
rank = dist.get_rank()
pids = [None, None]
dist.all_gather_object(pids, os.getpid())  # step 0: both ranks are here
print("step 0 done", flush=True)
if rank == 1:
    os.kill(os.getpid(), signal.SIGKILL)  # stands for the out-of-memory killer
while alive(pids[1]):
    time.sleep(0.1)  # rank 0 starts step 1 once rank 1 is dead (see the docstring)
try:
    dist.all_reduce(torch.ones(1))  # step 1: rank 1 is gone
except RuntimeError as exc:
    print(f"{type(exc).__name__}: {exc}")
dist.destroy_process_group()
"""


def masked(text):
    # the build's source paths, the peer's address and port change between runs/machines
    text = re.sub(r"\[/[^\]]*\] ", "", text)
    text = re.sub(r"/\S*/(\w+\.cc:\d+)", r"…/\1", text)
    return re.sub(r"\[[0-9a-fA-F.:]+\]:\d+", "[ADDRESS]:PORT", text)


def launch(source, world_size=2, **env):
    """Run `source` on world_size ranks as torchrun would: (code, out, err) each."""
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "worker.py")
        with open(script, "w") as file:
            file.write(source)
        with socket.socket() as sock:  # a free port for rank 0's store
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        ranks = []
        for rank in range(world_size):
            ranks.append(subprocess.Popen(
                [sys.executable, script], text=True, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, env=dict(
                    os.environ, **env, RANK=str(rank), LOCAL_RANK=str(rank),
                    WORLD_SIZE=str(world_size), MASTER_ADDR="127.0.0.1",
                    MASTER_PORT=str(port), OMP_NUM_THREADS="1")))
        return [(p.wait(60), *p.communicate()) for p in ranks]


def ended(code):
    if code < 0:
        return f"killed by {signal.Signals(-code).name}"
    return f"exit code {code}"


for rank, (code, out, err) in enumerate(launch(WORKER)):
    print(f"rank {rank}: {ended(code)}")
    for line in masked(out + err).splitlines():
        print(f"  {line}")
