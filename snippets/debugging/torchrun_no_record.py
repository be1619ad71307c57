"""torchrun's failure report without @record: the root cause has no traceback.

The same launch as torchrun_report.py, with main() not decorated. torchrun still finds
the first failure, rank 0 with exit code 1, but has no error file from it: the report
shows `error_file: <N/A>` and, instead of the traceback, a link. The traceback then
exists only in rank 0's own stderr (here in torchrun's --log-dir; on a cluster, in that
worker's log).

Run: python torchrun_no_record.py
Timeout: 180
"""
import os
import re
import signal
import subprocess
import sys
import tempfile

TRAIN = """
import time

import torch
import torch.distributed as dist


def main():  # no @record
    dist.init_process_group("gloo")
    try:
        train(dist.get_rank())
    finally:  # a gloo group still alive at exit can abort the process (SIGABRT)
        dist.destroy_process_group()


def train(rank):
    grad = torch.ones(1)  # held here: on older torch, gloo freeing a temporary can deadlock teardown
    for step in range(5):
        dist.all_reduce(grad)
        if step == 2 and rank == 0:
            raise ValueError(f"loss is NaN at step {step}")
        if step == 2:
            time.sleep(120)  # rank 1: still in its step 3 when rank 0 fails


main()
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


def torchrun(source, nproc=2):
    """Launch `source` with torchrun; return its exit code and what it printed."""
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "train.py")
        with open(script, "w") as file:
            file.write(source)
        command = [sys.executable, "-m", "torch.distributed.run", "--standalone",
                   f"--nproc-per-node={nproc}", "--log-dir", os.path.join(tmp, "logs"),
                   "--redirects", "3", script]  # workers' own output: to the log dir
        # OMP_NUM_THREADS set: torchrun would set it to 1 and print a warning about it
        env = dict(os.environ, OMP_NUM_THREADS="1")
        run = subprocess.Popen(command, cwd=tmp, env=env, text=True,
                               start_new_session=True,  # to kill all on a timeout
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        try:
            console, _ = run.communicate(timeout=150)
        except subprocess.TimeoutExpired:
            os.killpg(run.pid, signal.SIGKILL)
            raise
        return run.returncode, masked(console, tmp)


code, console = torchrun(TRAIN)
print(f"torchrun exit code: {code}")
# torchrun's own traceback (from its main() down to the raise) is skipped
report = console[console.index("torch.distributed.elastic.multiprocessing.errors"):]
for line in console[:console.index("Traceback")].splitlines() + report.splitlines():
    print(line.rstrip())
