"""ChildFailedError: what torchrun raises when a worker fails, caught and taken apart.

torchrun is torch.distributed.run.main(); called in this process with torchrun's own
arguments, it launches a small 2-rank script (written to a temporary directory) in which
rank 1 raises at step 2. Every worker gets its own TORCHELASTIC_ERROR_FILE; @record on
the script's main() writes rank 1's exception there as JSON. torchrun reads those files
into the ChildFailedError it raises: one ProcessFailure per failed rank, the first of them
the root cause. With TORCHELASTIC_ERROR_FILE set for torchrun itself, its own @record also
copies the root cause's file there, for a scheduler or a wrapper script to pick up.

Run: python child_failed_error.py
Timeout: 180
"""
import json
import logging
import os
import re
import tempfile

import torch.distributed.run
from torch.distributed.elastic.multiprocessing.errors import ChildFailedError

TRAIN = """
import time

import torch
import torch.distributed as dist
from torch.distributed.elastic.multiprocessing.errors import record


@record
def main():
    dist.init_process_group("gloo")
    try:
        train(dist.get_rank())
    finally:  # a gloo group still alive at exit can abort the process (SIGABRT)
        dist.destroy_process_group()


def train(rank):
    grad = torch.ones(1)  # held here: on older torch, gloo freeing a temporary can deadlock teardown
    for step in range(5):
        dist.all_reduce(grad)
        if step == 2 and rank == 1:
            raise ValueError(f"loss is NaN at step {step}")
        if step == 2:
            time.sleep(120)  # rank 0: still busy when rank 1 fails


main()
"""


def masked(text, tmp):
    """`text` without what changes between runs: paths, times, host name, pids."""
    text = text.replace(tmp, "<tmp>")
    text = re.sub(r"/logs/[^/]+/attempt_", "/logs/<run id>/attempt_", text)
    text = re.sub(r"\d{4}-\d\d-\d\d_\d\d:\d\d:\d\d", "<time>", text)
    text = re.sub(r"(host\s+: ).*", r"\1<host>", text)
    text = re.sub(r"(process |pid:? |PID )\d+", r"\1<pid>", text)
    text = re.sub(r"(binary: ).*", r"\1<python>", text)
    # rule lines are as wide as the report's longest line, at most 60 characters: shown at 60
    text = re.sub(r"^([=-])\1{19,}$", lambda rule: rule.group(1) * 60, text, flags=re.M)
    return re.sub(r'"\S*/(torch/\S+\.py)", line \d+', r'"…/\1"', text)  # torch's own files


class Records(logging.Handler):  # torchrun's log lines, kept instead of going to stderr
    def __init__(self):
        super().__init__()
        self.lines = []

    def emit(self, record):
        self.lines.append(f"{record.levelname}: {record.getMessage()}")


records = Records()
log = logging.getLogger("torch.distributed")
for handler in list(log.handlers):  # torch's own: to stderr, with times and pids
    log.removeHandler(handler)
log.addHandler(records)

with tempfile.TemporaryDirectory() as tmp:
    script = os.path.join(tmp, "train.py")
    with open(script, "w") as file:
        file.write(TRAIN)
    os.environ["OMP_NUM_THREADS"] = "1"  # else torchrun sets it for the workers, with a warning
    os.environ["TORCHELASTIC_ERROR_FILE"] = os.path.join(tmp, "torchrun_error.json")
    try:
        torch.distributed.run.main([
            "--standalone", "--nproc-per-node=2", "--monitor-interval=0.1",
            # workers' output: to files
            "--log-dir", os.path.join(tmp, "logs"), "--redirects", "3",
            script,
        ])
    except ChildFailedError as error:
        print(f"caught {type(error).__name__}; error.name: {masked(error.name, tmp)}")
        for rank, failure in sorted(error.failures.items()):
            print(f"failures[{rank}]: local_rank {failure.local_rank}, "
                  f"exitcode {failure.exitcode}, signal {failure.signal_name()}, "
                  f"error_file {masked(failure.error_file, tmp)}")
        rank, root = error.get_first_failure()
        print(f"get_first_failure(): rank {rank}")
        with open(root.error_file) as f:  # what rank 1's @record wrote
            written = json.load(f)
        print(f"rank {rank}'s error file: {sorted(written)} -> {sorted(written['message'])}")
        print(f"  message: {written['message']['message']}")
        print(f"  extraInfo: {sorted(written['message']['extraInfo'])}")
        print("  its py_callstack ends with: "
              f"{written['message']['extraInfo']['py_callstack'].splitlines()[-1]}")
        print(f"ProcessFailure.error_file_data is that file: {root.error_file_data == written}")
        print(f"ProcessFailure.message is its 'message': {root.message == written['message']}")
        with open(os.environ["TORCHELASTIC_ERROR_FILE"]) as f:  # written by torchrun's @record
            copied = json.load(f)["message"]
        print(f"torchrun's own error file: {sorted(copied)}, errorCode "
              f"{copied.pop('errorCode')}, "
              f"the rest as rank {rank} wrote it: {copied == written['message']}")
        report = error.format_msg()
        print("error.format_msg(), the report torchrun prints (== str(error): "
              f"{report == str(error)}):")
        for line in masked(report, tmp).strip().splitlines():
            print(line.rstrip())
    print("torchrun logged:")
    for line in records.lines:
        print(" ", masked(line, tmp))
