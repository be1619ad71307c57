"""Elastic restarts: with --max-restarts=1, torchrun restarts every worker after a failure.

Run by its Run: line, the script launches itself under torchrun:
torchrun --standalone --nproc-per-node=2 --max-restarts=1 elastic_restart.py
Each worker reads TORCHELASTIC_RESTART_COUNT and resumes from the last checkpoint. Rank 1 fails
on purpose after step 1 while the launcher still allows a restart: torchrun stops rank 0, starts
both workers again, and the second attempt resumes at step 2. The workers' output goes to one
log file per attempt and rank (--log-dir, --redirects 3), which the script prints at the end.

Every attempt meets in the launcher's store at the same MASTER_PORT, where the previous attempt's
keys are still present; a store prefix per attempt keeps a new group from reading old addresses.

Run: python elastic_restart.py
Timeout: 240
"""
import os
import signal
import subprocess
import sys
import tempfile
from datetime import timedelta
from pathlib import Path

import torch
import torch.distributed as dist


def worker():
    """One worker of one attempt, started by torchrun."""
    attempt = int(os.environ["TORCHELASTIC_RESTART_COUNT"])
    allowed = int(os.environ["TORCHELASTIC_MAX_RESTARTS"])
    rank, world_size = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
    launcher_store = dist.TCPStore(os.environ["MASTER_ADDR"], int(os.environ["MASTER_PORT"]),
                                   is_master=False,
                                   # an error, not 5 minutes' wait
                                   timeout=timedelta(seconds=60))
    store = dist.PrefixStore(f"attempt_{attempt}", launcher_store)  # fresh keys per attempt
    dist.init_process_group("gloo", store=store, rank=rank, world_size=world_size)
    # One checkpoint per run (the run id stays the same across restarts).
    run_id = os.environ["TORCHELASTIC_RUN_ID"]
    checkpoint = os.path.join(tempfile.gettempdir(), f"elastic-{run_id}.txt")

    start = 0
    if os.path.exists(checkpoint):
        with open(checkpoint) as f:
            start = int(f.read()) + 1
    print(f"attempt {attempt} (restarts allowed: {allowed}): starting at step {start}")

    for step in range(start, 4):
        total = torch.tensor([float(step)])
        dist.all_reduce(total)  # stands for a training step
        if rank == 0:
            with open(checkpoint, "w") as f:
                f.write(str(step))
        dist.barrier()  # the checkpoint of this step is written before anyone goes on
        print(f"step {step} done")
        if rank == 1 and step == 1 and attempt < allowed:
            print("rank 1 fails on purpose")
            sys.exit(1)  # torchrun stops the other workers and starts a new attempt

    dist.barrier()  # no rank tears down while a peer still talks to it
    dist.destroy_process_group()
    if rank == 0:
        os.remove(checkpoint)
    print("finished")


def launch():
    """Start torchrun on this file and print, attempt by attempt, what each worker printed."""
    with tempfile.TemporaryDirectory() as tmp:
        # The checkpoint and the logs stay in the temporary directory.
        env = dict(os.environ, TMPDIR=tmp, PYTHONUNBUFFERED="1", OMP_NUM_THREADS="1")
        command = ["--standalone", "--nproc-per-node=2", "--max-restarts=1",
                   "--log-dir", tmp, "--redirects", "3", os.path.abspath(__file__)]
        # python -m torch.distributed.run is torchrun, with this interpreter.
        run = subprocess.Popen([sys.executable, "-m", "torch.distributed.run", *command],
                               env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True,
                               start_new_session=True)  # to kill all on a timeout
        try:
            run.communicate(timeout=200)
        except subprocess.TimeoutExpired:
            os.killpg(run.pid, signal.SIGKILL)  # torchrun and its workers, not torchrun alone
            raise
        print(f"torchrun exit code: {run.returncode}")
        # Logs: <log dir>/<run id>_<suffix>/attempt_<n>/<local rank>/stdout.log
        for log in sorted(Path(tmp).glob("*/attempt_*/*/stdout.log")):
            print(f"{log.parent.parent.name}, rank {log.parent.name}:")
            for line in log.read_text().splitlines():
                print(f"  {line}")


if __name__ == "__main__":
    if "TORCHELASTIC_RESTART_COUNT" in os.environ:  # set by torchrun for its workers
        worker()
    else:
        launch()
