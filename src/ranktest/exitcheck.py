"""Report, at exit, a process group that outlived ``dist.destroy_process_group()``.

A gloo process group runs worker threads (``pt_gloo_runloop``) until the last reference to it
is dropped. If one is still alive when the interpreter shuts down, a worker can release the last
reference to a finished collective whose saved thread-local state holds a Python object (every
collective DDP starts during ``backward()`` does); that needs the GIL, Python 3.11 ends the
thread instead, and the unwinding hits a C++ destructor: "terminate called without an active
exception", SIGABRT. Whether it happens depends on scheduling; whether a group is left alive
does not, so that is what is checked.

Before counting, :func:`release_torch_caches` drops what torch's own caches keep alive. The
forkserver calls both after a script's ``dist.destroy_process_group()``
(when its teardown check is on). A process started by another launcher (``torchrun``) gets the
check at exit through :func:`startup_env`, which puts a ``sitecustomize`` shim calling
:func:`report_at_exit` on its ``PYTHONPATH``. Needs nothing but the standard library.
"""

from __future__ import annotations

import atexit
import gc
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


#: torch's own caches that keep a ``DeviceMesh`` alive after the script dropped its last
#: reference to it (DTensor's sharding-propagation and redistribution caches; module, attribute
#: path, method to call). A program does not need them cleared, and a script should not touch
#: torch's private state, so the check does it itself; see :func:`release_torch_caches`.
TORCH_CACHES = (
    ("torch.distributed.tensor.debug", "_clear_sharding_prop_cache", None),
    ("torch.distributed.tensor._redistribute", "_gen_transform_infos", "cache_clear"),
    ("torch.distributed.tensor._redistribute", "clear_redistribute_planner_cache", None),
    ("torch.distributed.tensor._collective_utils", "MeshTopoInfo.build_from_mesh", "cache_clear"),
)


def release_torch_caches() -> None:
    """Drop what torch itself keeps of a script's process groups, so that what the check counts
    afterwards is what the *script* still refers to (a DDP module, a group handle).

    torch 2.15 keeps every ``DeviceMesh`` a DTensor ever used, through caches of its own (more
    than :data:`TORCH_CACHES`), and a mesh keeps its groups in its registry after
    ``destroy_process_group()``. So: empty those caches, collect reference cycles (FSDP's
    modules and hooks form them), and empty the group registry of every mesh still alive.
    """
    for module_name, path, method in TORCH_CACHES:
        target = sys.modules.get(module_name)
        for part in path.split("."):
            target = getattr(target, part, None)
        if target is not None:
            (getattr(target, method) if method else target)()
    gc.collect()
    mesh_type = getattr(sys.modules.get("torch.distributed.device_mesh"), "DeviceMesh", None)
    if mesh_type is not None:
        for obj in gc.get_objects():  # by type, not isinstance(): some of torch's types check lazily
            if mesh_type in type(obj).__mro__ and isinstance(getattr(obj, "_pg_registry", None), dict):
                obj._pg_registry.clear()
        gc.collect()


def groups_left_alive(settle_s: float = 0.5) -> int:
    """How many gloo process-group worker threads outlive what torch's own caches hold.

    The caches are released (:func:`release_torch_caches`, a walk over every object) only when
    a thread is still running: releasing drops references and never starts a thread, so with
    none running the verdict is already known, and a clean run pays one look at ``/proc``.
    """
    if live_group_threads(settle_s=0) == 0:
        return 0
    release_torch_caches()
    return live_group_threads(settle_s)


def _report() -> None:
    count = groups_left_alive()
    if count:
        print(f"error: a process group was still alive at exit ({count} gloo worker thread(s)): "
              f"something still referred to it after dist.destroy_process_group(); {FIX}",
              file=sys.stderr, flush=True)


def report_at_exit() -> None:
    """In a launcher's worker (``RANK`` is set), report at exit a process group left alive."""
    if "RANK" in os.environ:
        atexit.register(_report)


def run_shadowed_sitecustomize() -> None:
    """Run the ``sitecustomize`` module the shim hides: the one Python would have imported
    without :data:`STARTUP_DIR` on the path (a distribution's or a virtual environment's), if any."""
    import importlib.machinery
    import importlib.util

    path = [p for p in sys.path if Path(p or os.curdir).resolve() != STARTUP_DIR.resolve()]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", path)
    if spec is not None and spec.loader is not None:
        spec.loader.exec_module(importlib.util.module_from_spec(spec))


def startup_env(env: dict[str, str]) -> dict[str, str]:
    """``env`` with the start-up shim first on ``PYTHONPATH``: every Python process started
    with it (a torchrun worker, say) runs :func:`report_at_exit` at start-up, then the
    ``sitecustomize`` the shim hides (:func:`run_shadowed_sitecustomize`)."""
    path = os.pathsep.join(filter(None, [str(STARTUP_DIR), env.get("PYTHONPATH")]))
    return {**env, "PYTHONPATH": path}
