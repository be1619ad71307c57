"""Report, at exit, a process group that outlived ``dist.destroy_process_group()``.

A gloo process group runs worker threads (``pt_gloo_runloop``) until the last reference to it
is dropped. If one is still alive when the interpreter shuts down, a worker can release the last
reference to a finished collective whose saved thread-local state holds a Python object (every
collective DDP starts during ``backward()`` does); that needs the GIL, Python 3.11 ends the
thread instead, and the unwinding hits a C++ destructor: "terminate called without an active
exception", SIGABRT. Whether it happens depends on scheduling; whether a group is left alive
does not, so that is what is checked.

The forkserver calls :func:`live_group_threads` after a script's ``dist.destroy_process_group()``
(when its teardown check is on). A process started by another launcher (``torchrun``) gets the
check at exit through :func:`startup_env`, which puts a ``sitecustomize`` shim calling
:func:`report_at_exit` on its ``PYTHONPATH``. Needs nothing but the standard library.
"""

from __future__ import annotations

import atexit
import os
import sys
import time
from pathlib import Path

#: The name gloo process-group worker threads carry (``/proc/self/task/*/comm``).
GROUP_THREAD = "pt_gloo_runloop"
#: The directory holding the start-up shim (``sitecustomize.py``).
STARTUP_DIR = Path(__file__).with_name("_startup")

FIX = ("del every DDP module and group handle before the final dist.barrier(), and import "
       "torch.distributed.nn before dist.init_process_group() (see the teardown section of the "
       "documentation)")


def live_group_threads(settle_s: float = 0.5) -> int:
    """How many gloo process-group worker threads this process still runs.

    A joined thread can stay listed in /proc for a moment, so a non-zero count is re-read
    until it is zero or ``settle_s`` has passed.
    """
    deadline = time.monotonic() + settle_s
    while True:
        count = 0
        for tid in os.listdir("/proc/self/task"):
            try:
                with open(f"/proc/self/task/{tid}/comm") as comm:
                    count += comm.read().strip() == GROUP_THREAD
            except OSError:  # the thread ended meanwhile
                continue
        if count == 0 or time.monotonic() >= deadline:
            return count
        time.sleep(0.01)


def _report() -> None:
    count = live_group_threads()
    if count:
        print(f"error: a process group was still alive at exit ({count} gloo worker thread(s)): "
              f"something still referred to it after dist.destroy_process_group(); {FIX}",
              file=sys.stderr, flush=True)


def report_at_exit() -> None:
    """In a launcher's worker (``RANK`` is set), report at exit a process group left alive."""
    if "RANK" in os.environ:
        atexit.register(_report)


def startup_env(env: dict[str, str]) -> dict[str, str]:
    """``env`` with the start-up shim first on ``PYTHONPATH``: every Python process started
    with it (a torchrun worker, say) runs :func:`report_at_exit` at start-up."""
    path = os.pathsep.join(filter(None, [str(STARTUP_DIR), env.get("PYTHONPATH")]))
    return {**env, "PYTHONPATH": path}
