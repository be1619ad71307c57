"""A rank that dies: its peers read the connection "closed" or "reset" by peer.

Rank 1 is killed (SIGKILL, as the kernel's out-of-memory killer does) right after the
process group is set up; rank 0's next collective fails at once. gloo reports the lost
connection as "closed" or "reset" by peer depending on timing, so the example prints
both words and the common rest of the message. It starts the two ranks itself, as plain
processes with the environment torchrun would give them, so that it can end normally and
show what each one printed and how it ended.

Run: python peer_kill.py
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
import os
import re
import signal

import torch
import torch.distributed as dist

dist.init_process_group("gloo")
rank = dist.get_rank()
dist.barrier()
print("process group ready", flush=True)
if rank == 1:
    os.kill(os.getpid(), signal.SIGKILL)  # stands for the out-of-memory killer
try:
    dist.all_reduce(torch.ones(1))  # rank 1 is gone
except RuntimeError as exc:
    # gloo words this "Connection closed by peer [...]" or "Read error [...]: Connection
    # reset by peer"; which one depends on timing (both happen in this project's runs),
    # so the example joins the two words and keeps the common rest of the message
    text = str(exc)
    if re.search(r"Connection (closed|reset) by peer", text):
        text = "Connection closed or reset by peer. " + text[text.index("Check the"):]
    print(f"{type(exc).__name__}: {text}")
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
