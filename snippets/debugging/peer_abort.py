"""A rank that aborts: its peer sees "Connection reset by peer".

The same dtype bug as in mismatch_dtype.py, with the debug level OFF: rank 0 all-reduces
float32, rank 1 int64, same shape. Rank 0 receives more bytes than it expects; gloo's
check fails in a background thread, the C++ runtime aborts rank 0 (SIGABRT), and rank 1,
whose connection is torn down with data unread, reads "Connection reset by peer". The
example starts the two ranks itself, as plain processes with the environment torchrun
would give them, so that it can end normally and show what each one printed.

Run: python peer_abort.py
Timeout: 120
"""
import os
import re
import signal
import subprocess
import sys
import tempfile

import torch.distributed as dist

WORKER = """
import torch
import torch.distributed as dist

dist.init_process_group("gloo")
rank = dist.get_rank()
dtype = torch.float32 if rank == 0 else torch.int64  # the bug
try:
    dist.all_reduce(torch.ones(2, dtype=dtype))
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
        # the store lives here, as torchrun's agent hosts it: no free port to guess
        store = dist.TCPStore("127.0.0.1", 0, is_master=True, wait_for_workers=False)
        ranks = []
        for rank in range(world_size):
            ranks.append(subprocess.Popen(
                [sys.executable, script], text=True, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, env=dict(
                    os.environ, **env, RANK=str(rank), LOCAL_RANK=str(rank),
                    WORLD_SIZE=str(world_size), MASTER_ADDR="127.0.0.1",
                    MASTER_PORT=str(store.port), TORCHELASTIC_USE_AGENT_STORE="True",
                    OMP_NUM_THREADS="1")))
        outputs = [p.communicate(timeout=120) for p in ranks]
        return [(p.returncode, out, err) for p, (out, err) in zip(ranks, outputs)]


def ended(code):
    if code < 0:
        return f"killed by {signal.Signals(-code).name}"
    return f"exit code {code}"


for rank, (code, out, err) in enumerate(launch(WORKER)):
    print(f"rank {rank}: {ended(code)}")
    for line in masked(out + err).splitlines():
        print(f"  {line}")
