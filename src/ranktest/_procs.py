"""Process plumbing shared by the server and the torchrun helpers: forking a child that dies with
its parent, reading ``/proc/PID/stat``, and signalling a process that may already be gone."""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import traceback
from pathlib import Path
from typing import Callable

_PR_SET_PDEATHSIG = 1
_PR_SET_CHILD_SUBREAPER = 36
_libc = ctypes.CDLL(None, use_errno=True)

#: Exit status of a child whose function raised (BSD ``EX_SOFTWARE``).
CHILD_ERROR = 70


def die_with_parent() -> None:
    """Have the kernel SIGKILL this process when its parent dies."""
    parent = os.getppid()
    _libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(1)


def fork(child: Callable[[], int]) -> int:
    """Fork; the child runs ``child()``, exits with what it returns, and never returns here."""
    pid = os.fork()
    if pid == 0:
        code = CHILD_ERROR
        try:
            die_with_parent()
            for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGPIPE, signal.SIGCHLD):
                signal.signal(sig, signal.SIG_DFL)
            code = child()
        except BaseException:  # noqa: BLE001 - report anything, then leave
            traceback.print_exc()
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            _libc.fflush(None)
            os._exit(code)
    return pid


def stat_fields(pid: int) -> list[str] | None:
    """The fields of ``/proc/PID/stat`` after the command name (state first, then the parent's
    pid, ...), or ``None`` once the process is gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def state(pid: int) -> str:
    """The process's state letter (R, S, T, Z, ...); ``"X"`` once it is gone."""
    fields = stat_fields(pid)
    return fields[0] if fields else "X"


_PF_EXITING = 0x4  # the kernel's task flag, in /proc/PID/stat's ninth field


def exiting(pid: int) -> bool:
    """Whether ``pid`` is ending or has ended: gone, a zombie, or on the kernel's exit path
    (``PF_EXITING`` is set as it starts, before the process's sockets close)."""
    fields = stat_fields(pid)
    return fields is None or fields[0] in ("Z", "X") or bool(int(fields[6]) & _PF_EXITING)


def alive(pid: int) -> bool:
    """Whether ``pid`` still runs (a zombie does not)."""
    return state(pid) not in ("Z", "X")


def children() -> dict[int, list[int]]:
    """Every process's children, by parent pid, read from ``/proc``."""
    tree: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (fields := stat_fields(int(entry.name))):
            tree.setdefault(int(fields[1]), []).append(int(entry.name))
    return tree


def send(pid: int, sig: int) -> None:
    """``os.kill``, ignoring a process that is already gone."""
    try:
        os.kill(pid, sig)
    except ProcessLookupError:
        pass


def become_subreaper() -> None:
    """Have the orphans of this process's descendants re-parented to it rather than to PID 1
    (``PR_SET_CHILD_SUBREAPER``; not inherited by forked children), so that
    :func:`kill_orphans` can end one that left its rank's session (``setsid``, as torchrun's
    workers do) and outlived the rank."""
    _libc.prctl(_PR_SET_CHILD_SUBREAPER, 1)


def kill_orphans() -> list[int]:
    """SIGKILL and reap every child this process still has (after a run: descendants of its
    ranks that outlived them); returns their pids. Costs one ``waitpid`` when there are none."""
    killed: list[int] = []
    while True:
        try:
            if os.waitpid(-1, os.WNOHANG) != (0, 0):
                continue  # one had already ended: reaped, look again
        except ChildProcessError:
            return killed  # no child at all
        left = children().get(os.getpid(), [])
        for pid in left:
            send(pid, signal.SIGKILL)
        for pid in left:
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass
        killed += left
