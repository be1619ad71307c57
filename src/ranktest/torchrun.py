"""Helpers for running real ``torchrun`` next to the forkserver: the executable, its command
line with per-rank log files, a warm launch through the forkserver, reading the logs, and
killing a launch with all its workers."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from ranktest import _procs as procs

if TYPE_CHECKING:
    from ranktest.client import Forkserver
    from ranktest.results import RunResult

#: Variables a launcher sets for its workers; a launch started from inside a worker drops them.
LAUNCHER_VARS = ("RANK", "LOCAL_RANK", "WORLD_SIZE", "LOCAL_WORLD_SIZE", "MASTER_ADDR",
                 "MASTER_PORT", "GROUP_RANK", "ROLE_RANK", "TORCHELASTIC_")


def torchrun_executable() -> list[str]:
    """The torchrun of the Python running this code (the same torch as the forkserver)."""
    script = Path(sys.executable).with_name("torchrun")
    return [str(script)] if script.exists() else [sys.executable, "-m", "torch.distributed.run"]


#: The script a warm launch runs: torchrun's entry point (:func:`launch_warm`).
WARM_AGENT = Path(__file__).with_name("_agent") / "torchrun_main.py"


def torchrun_args(args: list[str], log_dir: Path | None = None) -> list[str]:
    """torchrun's arguments ``ARGS``; with ``log_dir``, each worker's stdout and stderr go to
    files there (read them with :func:`rank_logs`)."""
    logs = ["--log-dir", str(log_dir), "--redirects", "3"] if log_dir is not None else []
    return [*logs, *args]


def torchrun_argv(args: list[str], log_dir: Path | None = None) -> list[str]:
    """``torchrun ARGS`` with this environment's torchrun (``log_dir``: :func:`torchrun_args`)."""
    return [*torchrun_executable(), *torchrun_args(args, log_dir)]


def launch_warm(server: Forkserver, args: list[str], *, cwd: str | Path, env: dict[str, str],
                timeout: float) -> RunResult:
    """``torchrun ARGS`` in ``cwd`` with ``env``, its agent a process forked from ``server``.

    The agent runs torchrun's own entry point (``torch.distributed.run.main``, what the
    ``torchrun`` console script calls) with ``args``, in a process that has imported torch
    already; its workers are started by it as under ``torchrun``, fresh processes that import
    torch and run the script as ``__main__``. A launch so costs one torch import fewer (about a
    third of a two-worker launch's CPU time). The result's one rank is the agent: its exit status
    and what it printed; on a timeout the agent is killed, and its workers (orphaned, in
    sessions of their own) with it, before this returns."""
    return server.run(WARM_AGENT, 1, args=tuple(args), cwd=cwd, env=env, timeout=timeout,
                      strict_warnings=False, distributed=False, check_teardown=False)


def rank_logs(log_dir: Path, local_rank: int, attempt: int | None = None) -> tuple[str, str]:
    """What local rank ``local_rank`` of a launch wrote (stdout, stderr), from the log files of
    ``attempt`` (default: the last one); empty strings when it wrote none."""
    attempts = sorted(Path(log_dir).glob("*/attempt_*"), key=lambda p: int(p.name.split("_")[1]))
    if attempt is not None:
        attempts = [p for p in attempts if p.name == f"attempt_{attempt}"]
    if not attempts:
        return "", ""

    def read(name: str) -> str:
        path = attempts[-1] / str(local_rank) / name
        return path.read_text(errors="replace") if path.exists() else ""

    return read("stdout.log"), read("stderr.log")


def clean_env(env: dict[str, str]) -> dict[str, str]:
    """``env`` without the variables an enclosing launcher set (so a launch inside a worker
    starts its own rendezvous)."""
    return {k: v for k, v in env.items() if not k.startswith(LAUNCHER_VARS)}


def kill_tree(proc: subprocess.Popen, timeout: float = 10.0) -> None:
    """SIGKILL ``proc`` and all its descendants, then reap it. torchrun starts each worker in a
    session of its own, so a process-group kill would miss them; they are found through /proc.
    The tree is first stopped from the top down, so that no parent sees a child die before it
    dies itself (a shell would print "Killed", torchrun's agent would restart its workers).
    It returns once every process of the tree has died (a SIGKILL is delivered asynchronously:
    a caller that looks right after ``kill`` may still see a dying child running), or after
    ``timeout`` seconds, naming those still running."""
    stopped: list[int] = []
    todo = [proc.pid]
    while todo:  # stop, then look again for children forked before their parent stopped
        for pid in todo:
            procs.send(pid, signal.SIGSTOP)
        stopped.extend(todo)
        children = procs.children()
        todo = [c for pid in stopped for c in children.get(pid, []) if c not in stopped]
    for pid in stopped:
        procs.send(pid, signal.SIGKILL)
    proc.wait()
    deadline = time.monotonic() + timeout
    while (running := [pid for pid in stopped if procs.alive(pid)]) and time.monotonic() < deadline:
        time.sleep(0.01)
    if running:
        raise RuntimeError(f"killed with SIGKILL but still running after {timeout:.0f} s: pids "
                           f"{running} (a process in uninterruptible sleep, state D, dies only "
                           f"when its I/O returns)")
