"""The teardown rule, checked inside a rank (opt-in: ``Forkserver(check_teardown=True)``).

A distributed script ends the robust way when it ``del``-s every DDP module and group handle,
then calls ``dist.barrier()``, then ``dist.destroy_process_group()``, after which no process
group is left alive. Without the barrier a rank can tear down while a peer still talks to it (a
rank that did no collective after ``init_process_group`` exited while its peer was still
connecting: "Connection closed by peer"). A group that outlives ``destroy_process_group()``
keeps its gloo worker threads into interpreter shutdown, where they can abort the process (see
:mod:`ranktest.exitcheck`). Forked ranks end through ``os._exit`` and would show neither failure
reliably, so the order and the threads themselves are checked, every time.
"""

from __future__ import annotations

import gc
import weakref

from ranktest.exitcheck import FIX, groups_left_alive

#: What a script that never destroyed its default group is told.
NOT_DESTROYED = "the script ended without calling dist.destroy_process_group()"


def watch() -> list[str]:
    """Wrap ``DistributedDataParallel.__init__``, ``dist.barrier`` and
    ``dist.destroy_process_group`` in this process; return the list the wrappers append their
    complaints to."""
    import torch.distributed as dist
    from torch.nn.parallel import DistributedDataParallel

    errors: list[str] = []
    alive: weakref.WeakSet = weakref.WeakSet()
    state = {"barrier_after_ddp": False}
    ddp_init, barrier, destroy = DistributedDataParallel.__init__, dist.barrier, dist.destroy_process_group

    def init(self, *args, **kwargs):
        ddp_init(self, *args, **kwargs)
        alive.add(self)
        state["barrier_after_ddp"] = False

    def checked_barrier(*args, **kwargs):
        state["barrier_after_ddp"] = not alive
        return barrier(*args, **kwargs)

    def checked_destroy(group=None):
        if group is None and alive:
            gc.collect()
        if group is None and alive:
            errors.append("dist.destroy_process_group() was called while a DistributedDataParallel "
                          "module was still alive; end with: del model; dist.barrier(); "
                          "dist.destroy_process_group()")
        elif group is None and not state["barrier_after_ddp"]:
            errors.append("dist.destroy_process_group() was not preceded by dist.barrier() (after "
                          "deleting any DDP module); without it a rank can tear down while a peer "
                          "still talks to it")
        result = destroy(group)
        if group is None and (count := groups_left_alive()):
            errors.append(f"a process group outlived dist.destroy_process_group() ({count} gloo "
                          f"worker thread(s) still running); {FIX}")
        return result

    DistributedDataParallel.__init__ = init
    dist.barrier = checked_barrier
    dist.destroy_process_group = checked_destroy
    return errors
