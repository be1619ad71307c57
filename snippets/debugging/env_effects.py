"""OMP_NUM_THREADS under torchrun, and TORCH_CPP_LOG_LEVEL: their effect, checked.

torchrun sets OMP_NUM_THREADS=1 for every worker when it is not set and there is more
than one worker per node, and says so in a warning; a value you set is passed on. The
workers print what they got. TORCH_CPP_LOG_LEVEL filters torch's C++ log lines on
stderr: a failed monitored_barrier logs at ERROR level, which FATAL hides. The example
starts torchrun, and for the second part two plain processes, on small scripts in a
temporary directory.

Run: python env_effects.py
Timeout: 240
"""
import glob
import os
import re
import signal
import subprocess
import sys
import tempfile

import torch.distributed as dist

THREADS = """
import os

import torch

print(f"OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS')}", end=" ")
print(f"torch.get_num_threads()={torch.get_num_threads()}")
"""

BARRIER = """
from datetime import timedelta

import torch.distributed as dist

dist.init_process_group("gloo")
group = dist.new_group()  # a timed-out monitored_barrier leaves its group unusable
if dist.get_rank() == 0:
    try:
        # rank 1 never arrives
        dist.monitored_barrier(group, timeout=timedelta(seconds=1))
    except RuntimeError:
        pass  # the C++ log line on stderr is what this part looks at
del group
dist.barrier()
dist.destroy_process_group()
"""


def masked(text, tmp):
    text = text.replace(tmp, "<tmp>")
    text = re.sub(r"\d{4}-\d\d-\d\d_\d\d:\d\d:\d\d", "<time>", text)
    text = re.sub(r"(host\s+: ).*", r"\1<host>", text)
    text = re.sub(r"(pid:? )\d+", r"\1<pid>", text)
    text = re.sub(r"(PID )\d+", r"\1<pid>", text)
    text = re.sub(r"(binary: ).*", r"\1<python>", text)
    text = re.sub(r"(process )\d+", r"\1<pid>", text)
    text = re.sub(r"/logs/[^/]+/attempt_", "/logs/<run id>/attempt_", text)
    text = re.sub(r"\[/[^\]]*\] ", "", text)  # the build's source path in gloo's errors
    text = re.sub(r"\[[0-9a-fA-F.:]+\]:\d+", "[ADDRESS]:PORT", text)
    # torch's own files: the path from "torch/" on, without a line number
    text = re.sub(r'"\S*/(torch/\S+\.py)", line \d+', r'"…/\1"', text)
    # rule lines are as wide as the report's longest line (pid digits included), at most
    # 60 characters: shown at 60
    text = re.sub(r"^([=-])\1{19,}$", lambda rule: rule.group(1) * 60, text, flags=re.M)
    # log lines: "E1123 13:27:41.123 1234 torch/…/api.py:1002] " -> "E torch/…/api.py] "
    return re.sub(r"^([EWI])\d{4} \S+ \d+ (\S+?):\d+\]", r"\1 \2]", text, flags=re.M)


def torchrun(source, nproc=2, **env):
    """Launch `source` with torchrun; return its exit code and what it printed."""
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "train.py")
        with open(script, "w") as file:
            file.write(source)
        command = [sys.executable, "-m", "torch.distributed.run", "--standalone",
                   f"--nproc-per-node={nproc}", "--log-dir", os.path.join(tmp, "logs"),
                   "--redirects", "3", script]  # workers' own output: to the log dir
        env = dict(os.environ, **env)
        run = subprocess.Popen(command, cwd=tmp, env=env, text=True,
                               start_new_session=True,  # to kill all on a timeout
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        try:
            console, _ = run.communicate(timeout=150)
        except subprocess.TimeoutExpired:
            os.killpg(run.pid, signal.SIGKILL)
            raise
        logs = glob.glob(os.path.join(tmp, "logs", "*", "attempt_0", "*", "stdout.log"))
        logs.sort(key=lambda log: int(log.split(os.sep)[-2]))
        # each worker's stdout, by local rank
        outputs = [open(log).read() for log in logs]
        return masked(console, tmp), outputs



def launch(source, world_size=2, **env):
    """Run `source` on world_size ranks as torchrun would; stderr of each."""
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "worker.py")
        with open(script, "w") as file:
            file.write(source)
        # the store lives here, as torchrun's agent hosts it: no free port to guess
        store = dist.TCPStore("127.0.0.1", 0, is_master=True, wait_for_workers=False)
        ranks = []
        for rank in range(world_size):
            ranks.append(subprocess.Popen(
                [sys.executable, script], text=True, stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE, env=dict(
                    os.environ, **env, RANK=str(rank), LOCAL_RANK=str(rank),
                    WORLD_SIZE=str(world_size), MASTER_ADDR="127.0.0.1",
                    MASTER_PORT=str(store.port), TORCHELASTIC_USE_AGENT_STORE="True",
                    OMP_NUM_THREADS="1")))
        return [p.communicate(timeout=120)[1] for p in ranks]



os.environ.pop("OMP_NUM_THREADS", None)  # the first launch: unset
for threads in (None, "2"):
    env = {"OMP_NUM_THREADS": threads} if threads else {}
    console, outputs = torchrun(THREADS, **env)
    print(f"torchrun, OMP_NUM_THREADS {'unset' if threads is None else '= ' + threads}:")
    for rank, output in enumerate(outputs):
        print(f"  worker {rank}: {output.strip()}")
    warned = "Setting OMP_NUM_THREADS environment variable" in console
    print(f"  torchrun warned about OMP_NUM_THREADS: {warned}")

for level in ("WARNING", "FATAL"):
    rank0_stderr = launch(BARRIER, TORCH_CPP_LOG_LEVEL=level)[0]
    lines = rank0_stderr.splitlines()
    errors = [line for line in lines if line.startswith("[rank0]:[E")]
    print(f"TORCH_CPP_LOG_LEVEL={level}: C++ ERROR lines on rank 0's stderr: {len(errors)}")
