"""When a child fails: ProcessRaisedException and ProcessExitedException.

join() (inside spawn/start_processes, or called on the ProcessContext) raises in the parent
as soon as one child has failed, after stopping the others:
- ProcessRaisedException when the child's fn raised: the message carries its traceback;
- ProcessExitedException when it exited with a nonzero code (os._exit, sys.exit) or was
  killed by a signal: exit_code, and signal_name for a signal.
Both carry error_index (the failed child's i) and error_pid.

Run: python mp_errors.py
Variants: cpu
Timeout: 120
"""
import os
import signal
import sys

import torch.multiprocessing as mp


def worker(i, how, go):
    if i == 0:
        return  # child 0 succeeds
    go.wait()  # child 1 fails only once child 0 has exited (see below)
    if how == "raise":
        raise ValueError(f"bad batch in process {i}")
    if how == "exit":
        sys.exit(3)  # SystemExit: no traceback, exit code 3
    os.kill(os.getpid(), signal.SIGKILL)  # as the out-of-memory killer would


def run(how):
    go = mp.get_context("fork").Event()
    # fork: quick to start; spawn raises the same exceptions
    context = mp.start_processes(worker, args=(how, go), nprocs=2, join=False,
                                 start_method="fork")
    # The first join() returns False when child 0 exits: one process still runs. Only then
    # may child 1 fail, so that join() has no running process left to stop (it would log a
    # warning on stderr).
    print(f"{how}: join() returned {context.join()}")
    go.set()
    try:
        context.join()
    except mp.ProcessRaisedException as exc:
        lines = str(exc).strip().splitlines()
        print(f"  {type(exc).__name__}: error_index={exc.error_index}, "
              f"error_pid is child 1's pid: {exc.error_pid == context.pids()[1]}")
        print(f"  message, first line: {lines[0]}")
        print(f"  message, last line:  {lines[-1]}")
    except mp.ProcessExitedException as exc:
        print(f"  {type(exc).__name__}: error_index={exc.error_index}, "
              f"exit_code={exc.exit_code}, signal_name={exc.signal_name}")
        print(f"  message: {exc}")


if __name__ == "__main__":
    for how in ("raise", "exit", "kill"):
        run(how)
