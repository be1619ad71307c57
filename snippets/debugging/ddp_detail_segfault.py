"""TORCH_DISTRIBUTED_DEBUG=DETAIL with DDP on gloo/CPU: a segfault (torch 2.15.0).

DETAIL checks every collective across ranks (see mismatch_op.py), and that works for
plain collectives. Building a DistributedDataParallel module at DETAIL, on gloo with CPU
tensors, kills every rank with SIGSEGV inside the constructor; INFO works and already
names unused parameters (see the DDP page). The example starts the ranks itself, as
plain processes with the environment torchrun would give them, once per level, and shows
how each one ended.

Run: python ddp_detail_segfault.py
Timeout: 180
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
import torch.distributed.nn  # noqa: F401  (before init_process_group, see the README)
from torch.nn.parallel import DistributedDataParallel

dist.init_process_group("gloo")
print(f"debug level: {dist.get_debug_level()}", flush=True)
model = DistributedDataParallel(torch.nn.Linear(2, 2))
model(torch.ones(1, 2)).sum().backward()
print("DDP built, one backward pass done")
del model
dist.barrier()
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


for level in ("INFO", "DETAIL"):
    print(f"TORCH_DISTRIBUTED_DEBUG={level}")
    ranks = launch(WORKER, TORCH_DISTRIBUTED_DEBUG=level)
    for rank, (code, out, err) in enumerate(ranks):
        print(f"  rank {rank}: {ended(code)}")
        for line in masked(out + err).splitlines():
            print(f"    {line}")
