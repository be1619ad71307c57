"""The warm process: imports torch once, then forks one process per rank for each run.

Started by :class:`harness.client.Forkserver` as ``python -m harness.server``; it speaks one JSON
object per line on its standard input and output. It never touches CUDA or a process group
itself (forking after either is unsafe); every rank, the rendezvous store and the capability
probe are forked children.

Each rank runs in its own session (so its descendants can be killed together), dies with the
server (``PR_SET_PDEATHSIG``), writes stdout/stderr straight into files at the descriptor level,
and dumps every thread's Python stack on ``SIGUSR1``.
"""

from __future__ import annotations

import ctypes
import faulthandler
import json
import os
import runpy
import select
import signal
import sys
import time
import traceback
import warnings
from pathlib import Path

#: After the first rank fails, the others get this long to end on their own.
FAILURE_GRACE_S = 0.5
#: How long a rank gets to write its stacks after SIGUSR1, before SIGKILL.
STACK_DUMP_S = 0.3

_PR_SET_PDEATHSIG = 1
_libc = ctypes.CDLL(None, use_errno=True)


def die_with_parent() -> None:
    """Have the kernel SIGKILL this process when its parent dies."""
    parent = os.getppid()
    _libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(1)


def _fork(child) -> int:
    """Fork; the child runs ``child()`` and never returns into the server loop."""
    pid = os.fork()
    if pid == 0:
        code = 70
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


# --------------------------------------------------------------------------- children


def _probe(write_fd: int) -> int:
    import torch
    import torch.distributed as dist

    backends = {}
    for name in ("gloo", "nccl", "mpi", "ucc", "xccl"):
        check = getattr(dist, f"is_{name}_available", None)
        backends[name] = bool(dist.is_available() and check is not None and check())
    caps = {"torch": torch.__version__, "cuda_devices": torch.cuda.device_count(), "backends": backends}
    os.write(write_fd, json.dumps(caps).encode())
    return 0


def _store(write_fd: int, wait_fd: int, env: dict[str, str]) -> int:
    """Host a fresh TCPStore on a free loopback port until the server closes ``wait_fd``."""
    from torch.distributed import TCPStore

    os.environ.update(env)  # RES_OPTIONS and the like, before the store's first lookup

    store = TCPStore("127.0.0.1", 0, is_master=True, wait_for_workers=False)
    os.write(write_fd, str(store.port).encode())
    os.close(write_fd)
    os.read(wait_fd, 1)  # returns when the server closes its end or dies
    return 0


def _rank(req: dict, rank: int, port: int | None) -> int:
    os.setsid()
    outdir = req["outdir"]
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    os.dup2(os.open(f"{outdir}/rank{rank}.stdout", flags, 0o600), 1)
    os.dup2(os.open(f"{outdir}/rank{rank}.stderr", flags, 0o600), 2)
    for fd in _PROTOCOL_FDS:
        os.close(fd)
    sys.stdout.reconfigure(line_buffering=True)  # keep what was printed just before a crash
    sys.stderr.reconfigure(line_buffering=True)
    faulthandler.enable(file=sys.stderr, all_threads=True)
    faulthandler.register(signal.SIGUSR1, file=sys.stderr, all_threads=True)

    env = dict(req["env"])
    if port is not None:
        env.update(_rank_env(rank, req["world_size"], port, req["run_id"]))
    os.environ.clear()
    os.environ.update(env)
    import torch

    if "OMP_NUM_THREADS" in env:
        torch.set_num_threads(int(env["OMP_NUM_THREADS"]))
    if req.get("strict_warnings"):  # as `python -W error::DeprecationWarning -W error::FutureWarning`
        warnings.filterwarnings("error", category=DeprecationWarning)
        warnings.filterwarnings("error", category=FutureWarning)

    teardown_errors = _watch_teardown() if port is not None else []
    os.chdir(req["cwd"])
    script = req["argv"][0]
    sys.argv = list(req["argv"])
    sys.path[0] = os.path.dirname(os.path.abspath(script))
    try:
        runpy.run_path(script, run_name="__main__")
    except SystemExit as exc:
        code = exc.code
        if code is None:
            code = 0
        elif not isinstance(code, int):
            print(code, file=sys.stderr)
            code = 1
    except BaseException as exc:  # noqa: BLE001 - the script's own error, shown as python would
        _print_script_traceback(exc, script)
        code = 1
    else:
        code = 0
    if code == 0 and port is not None and torch.distributed.is_initialized():
        teardown_errors.append("the script ended without calling dist.destroy_process_group()")
    for error in teardown_errors:
        print(f"error: {error}", file=sys.stderr)
        code = code or 1
    if code != 0:  # before this process exits, so before any peer can fail because of it
        _failure_file(outdir, rank).write_text(repr(time.monotonic()))
    return code


def _watch_teardown() -> list[str]:
    """Check that a distributed script ends the robust way: ``del`` every DDP module and group
    handle, then ``dist.barrier()``, then ``dist.destroy_process_group()``, after which no
    process group may be left alive.

    Without the barrier a rank can tear down while a peer still talks to it: a rank that did
    no collective after ``init_process_group`` exited while its peer was still connecting
    ("Connection closed by peer", 1 run in 30 here). A group that outlives
    ``destroy_process_group()`` keeps its gloo worker threads into interpreter shutdown, where
    they can abort the process (see :mod:`harness.exitcheck.sitecustomize`). These runs end
    through ``os._exit`` and would not show either failure reliably, so the order and the
    threads themselves are checked, every time.
    """
    import gc
    import weakref

    import torch.distributed as dist
    from torch.nn.parallel import DistributedDataParallel

    from harness.exitcheck.sitecustomize import FIX, live_group_threads

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
        if group is None and (count := live_group_threads()):
            errors.append(f"a process group outlived dist.destroy_process_group() ({count} gloo "
                          f"worker thread(s) still running); {FIX}")
        return result

    DistributedDataParallel.__init__ = init
    dist.barrier = checked_barrier
    dist.destroy_process_group = checked_destroy
    return errors


def _print_script_traceback(exc: BaseException, script: str) -> None:
    """Print the traceback from the script's first frame on, without the harness's own frames."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename != script:
        tb = tb.tb_next
    traceback.print_exception(type(exc), exc, tb or exc.__traceback__)


def _rank_env(rank: int, world_size: int, port: int, run_id: str) -> dict[str, str]:
    """The variables torchrun gives a worker on a single node, pointed at the run's store."""
    env = {
        "RANK": rank, "LOCAL_RANK": rank, "WORLD_SIZE": world_size, "LOCAL_WORLD_SIZE": world_size,
        "GROUP_RANK": 0, "GROUP_WORLD_SIZE": 1, "ROLE_RANK": rank, "ROLE_WORLD_SIZE": world_size,
        "ROLE_NAME": "default", "MASTER_ADDR": "127.0.0.1", "MASTER_PORT": port,
        "TORCHELASTIC_USE_AGENT_STORE": "True", "TORCHELASTIC_RESTART_COUNT": 0,
        "TORCHELASTIC_MAX_RESTARTS": 0, "TORCHELASTIC_RUN_ID": run_id,
    }
    return {k: str(v) for k, v in env.items()}


# --------------------------------------------------------------------------- the server


def _read_pipe(fd: int) -> bytes:
    chunks = []
    while chunk := os.read(fd, 65536):
        chunks.append(chunk)
    os.close(fd)
    return b"".join(chunks)


def _failure_file(outdir: str, rank: int) -> Path:
    """Where a failing rank writes the time it failed (see :func:`_failure_time`)."""
    return Path(outdir, f"rank{rank}.failed_at")


def _failure_time(outdir: str, rank: int, died_after: float) -> float:
    """When ``rank`` failed, on the clock all processes share (CLOCK_MONOTONIC).

    A rank whose script failed wrote the time itself: a peer that fails because this rank is
    gone (a collective's "Connection closed by peer") fails later, even if the watch sees both
    exits at once. A rank that died without a word (a signal, ``os._exit``) counts as dead at
    ``died_after``, the watch's previous wake-up, so it comes before the errors it causes in
    its peers; a crash caused by a peer's error in the same wake-up would be misordered.
    """
    try:
        return float(_failure_file(outdir, rank).read_text())
    except (FileNotFoundError, ValueError):
        return died_after


def _reap(pid: int) -> int:
    """Kill what is left of the rank's session, reap the rank, return its exit status."""
    try:
        os.killpg(pid, signal.SIGKILL)  # descendants; the zombie keeps the group id reserved
    except (ProcessLookupError, PermissionError):
        pass
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


class Run:
    """One request: the store, the ranks, and the watch over them."""

    def __init__(self, req: dict):
        self.req = req
        self.store_pid = self.store_release = None
        port = self._start_store() if req["world_size"] > 1 or req.get("distributed") else None
        self.pids = [_fork(lambda r=r: _rank(req, r, port)) for r in range(req["world_size"])]
        self.pidfds = {os.pidfd_open(pid): rank for rank, pid in enumerate(self.pids)}
        self.status: dict[int, int] = {}
        self.stopped: set[int] = set()

    def _start_store(self) -> int:
        port_r, port_w = os.pipe()
        wait_r, wait_w = os.pipe()
        self.store_pid = _fork(lambda: _store(port_w, wait_r, self.req["env"]))
        os.close(port_w)
        os.close(wait_r)
        self.store_release = wait_w
        return int(_read_pipe(port_r))

    def watch(self, control_fd: int) -> dict:
        start = seen = time.monotonic()  # seen: when the watch last woke
        deadline = start + self.req["timeout"]
        failed_at: dict[int, float] = {}
        timed_out = False
        poller = select.poll()
        for fd in self.pidfds:
            poller.register(fd, select.POLLIN)
        poller.register(control_fd, select.POLLIN | select.POLLHUP)
        while len(self.status) < len(self.pids):
            wait_s = max(0.0, deadline - time.monotonic())
            events = poller.poll(wait_s * 1000)
            woke = time.monotonic()
            for fd, _ in events:
                if fd == control_fd:  # the client went away: stop everything
                    self.kill_all()
                    os._exit(0)
                rank = self.pidfds[fd]
                poller.unregister(fd)
                self.status[rank] = _reap(self.pids[rank])
                if self.status[rank] != 0:
                    if not failed_at:
                        deadline = min(deadline, woke + FAILURE_GRACE_S)
                    failed_at[rank] = _failure_time(self.req["outdir"], rank, died_after=seen)
            seen = woke
            if time.monotonic() >= deadline and len(self.status) < len(self.pids):
                timed_out = not failed_at
                self.stop_running()
        self.close()
        first_failure = min(failed_at, key=lambda r: (failed_at[r], r)) if failed_at else None
        return {
            "ranks": [{"rank": r, "returncode": self.status[r], "stopped": r in self.stopped}
                      for r in range(len(self.pids))],
            "first_failure": first_failure,
            "timed_out": timed_out,
            "elapsed": time.monotonic() - start,
        }

    def stop_running(self) -> None:
        """Dump the stacks of ranks still running, then kill them."""
        running = [r for r in range(len(self.pids)) if r not in self.status]
        for rank in running:
            self.stopped.add(rank)
            _signal(self.pids[rank], signal.SIGUSR1)
        time.sleep(STACK_DUMP_S)
        for rank in running:
            self.status[rank] = _reap(self.pids[rank])

    def kill_all(self) -> None:
        for rank, pid in enumerate(self.pids):
            if rank not in self.status:
                _reap(pid)
        self.close()

    def close(self) -> None:
        for fd in self.pidfds:
            os.close(fd)
        self.pidfds = {}
        if self.store_pid is not None:
            os.close(self.store_release)
            os.kill(self.store_pid, signal.SIGKILL)
            os.waitpid(self.store_pid, 0)
            self.store_pid = None


def _signal(pid: int, sig: int) -> None:
    try:
        os.kill(pid, sig)
    except ProcessLookupError:
        pass


def probe() -> dict:
    read_fd, write_fd = os.pipe()
    pid = _fork(lambda: _probe(write_fd))
    os.close(write_fd)
    data = _read_pipe(read_fd)
    os.waitpid(pid, 0)
    return json.loads(data)


_PROTOCOL_FDS: list[int] = []


def main() -> None:
    die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the client decides when to stop
    requests = os.fdopen(os.dup(0), "rb")
    replies = os.dup(1)
    _PROTOCOL_FDS.extend([requests.fileno(), replies])
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    os.dup2(2, 1)  # stray prints must not corrupt the protocol

    for module in os.environ.get("HARNESS_PRELOAD", "torch,torch.distributed").split(","):
        if module:
            __import__(module)

    def reply(obj: dict) -> None:
        os.write(replies, (json.dumps(obj) + "\n").encode())

    reply({"op": "ready", **probe()})
    for line in requests:
        req = json.loads(line)
        if req["op"] == "run":
            reply({"op": "done", **Run(req).watch(requests.fileno())})
        elif req["op"] == "quit":
            break


if __name__ == "__main__":
    main()
