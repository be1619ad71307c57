"""The client: start the warm server, send it runs, turn its replies into results."""

from __future__ import annotations

import importlib.util
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Callable

from ranktest import _protocol as protocol
from ranktest._rank import output_file
from ranktest.results import Capabilities, HarnessError, RankResult, RunResult, ServerRefused

#: Seconds a run may take when the caller does not say.
DEFAULT_TIMEOUT_S = 60.0
#: Extra seconds the client waits for the server's reply beyond the run's own timeout.
_REPLY_SLACK_S = 15.0


def default_preload() -> tuple[str, ...]:
    """Modules the server imports once: torch and torch.distributed, and numpy if installed."""
    numpy = ("numpy",) if importlib.util.find_spec("numpy") is not None else ()
    return ("torch", "torch.distributed", *numpy)


def check_platform() -> None:
    """Refuse to start anywhere but Linux, naming what is missing."""
    if sys.platform != "linux":
        raise HarnessError(f"ranktest runs on Linux only (it needs fork, pidfd_open and /proc); "
                           f"this is {sys.platform!r}")


class Forkserver:
    """A warm Python process with torch imported, forking one process per rank for each run.

    Use one per test process (it is not shared between processes)::

        with Forkserver() as server:
            result = server.run("train.py", world_size=2).check()
            print(result.ranks[1].stdout)

    ``preload``: modules the server imports once, so that each rank starts with them loaded
    (default :func:`default_preload`). ``check_teardown``: hold distributed scripts to the
    teardown rule of ``ranktest._teardown`` (off unless asked; :meth:`run` can override it).
    The server and every rank die with this process, however it ends.
    """

    def __init__(self, python: str | None = None, preload: tuple[str, ...] | None = None,
                 check_teardown: bool = False):
        check_platform()
        self._python = python or sys.executable
        self._preload = default_preload() if preload is None else tuple(preload)
        self._check_teardown = check_teardown
        self._proc: subprocess.Popen | None = None
        self._caps: Capabilities | None = None
        self._lock = threading.Lock()
        self._runs = 0

    def __enter__(self) -> Forkserver:
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @property
    def capabilities(self) -> Capabilities:
        """What the server's torch supports (starts the server if needed)."""
        self.start()
        assert self._caps is not None
        return self._caps

    def start(self, wait: bool = True) -> None:
        """Start the server and wait until the preloaded modules are imported. With ``wait``
        false, only launch it: it imports them in the background, and the first call that needs
        it (:meth:`run`, :attr:`capabilities`, ``start()``) waits for it to be ready."""
        if self._proc is None:
            env = dict(os.environ, PYTHONIOENCODING="utf-8", RANKTEST_PRELOAD=",".join(self._preload))
            self._proc = subprocess.Popen(
                [self._python, "-m", "ranktest._server"], stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, env=env, start_new_session=True,
            )
        if wait and self._caps is None:
            ready = self._receive(protocol.Ready, timeout=120)
            self._caps = Capabilities(ready.torch, ready.cuda_devices, ready.backends, ready.gpu)

    def close(self) -> None:
        """Stop the server; ranks still running die with it."""
        proc, self._proc = self._proc, None
        ready, self._caps = self._caps is not None, None
        if proc is None:
            return
        stopped = False
        if ready:  # a server never used may still be importing: nothing to wait for
            try:
                proc.stdin.close()
                proc.wait(timeout=5)
                stopped = True
            except (OSError, subprocess.TimeoutExpired):
                pass
        if not stopped:
            proc.kill()
            proc.wait()
        _close_pipes(proc)

    def run(self, script: str | os.PathLike, world_size: int = 1, *, args: tuple[str, ...] = (),
            env: dict[str, str] | None = None, timeout: float = DEFAULT_TIMEOUT_S,
            cwd: str | os.PathLike | None = None, strict_warnings: bool = True,
            distributed: bool | None = None, check_teardown: bool | None = None) -> RunResult:
        """Run ``script`` as ``world_size`` ranks, the way ``torchrun --nproc-per-node`` would.

        Each rank gets torchrun's environment (``RANK``, ``LOCAL_RANK``, ``WORLD_SIZE``,
        ``MASTER_ADDR=127.0.0.1``, ``MASTER_PORT`` of a fresh store made for this run, ...), plus
        ``env``. Runs in the script's directory unless ``cwd`` is given. With ``strict_warnings``,
        DeprecationWarning and FutureWarning are errors. ``distributed`` (default: ``world_size >
        1``) gives a one-rank run its store and variables too. ``check_teardown`` overrides the
        server's setting for this run. Never raises for a failed rank: call :meth:`RunResult.check`.
        """
        script = Path(script).resolve()
        if not script.is_file():
            raise FileNotFoundError(f"no such script: {script}")
        if distributed is None:
            distributed = world_size > 1
        with self._lock:
            self.start()
            self._runs += 1
            outdir = tempfile.mkdtemp(prefix="ranktest-run-")
            try:
                self._send(protocol.RunRequest(
                    argv=[str(script), *args], world_size=world_size, env=_run_env(distributed, env),
                    timeout=timeout, outdir=outdir, cwd=str(cwd or script.parent),
                    strict_warnings=strict_warnings, distributed=distributed,
                    run_id=f"ranktest-{os.getpid()}-{self._runs}",
                    check_teardown=self._check_teardown if check_teardown is None else check_teardown))
                done = self._receive(protocol.Done, timeout=timeout + _REPLY_SLACK_S)
                ranks = tuple(
                    RankResult(r.rank, r.returncode, _read(outdir, r.rank, "stdout"),
                               _read(outdir, r.rank, "stderr"), r.stopped)
                    for r in done.ranks
                )
            finally:
                shutil.rmtree(outdir, ignore_errors=True)
        return RunResult(str(script), world_size, ranks, done.first_failure, done.timed_out,
                         timeout, done.elapsed)

    def run_function(self, function: Callable[[], object], world_size: int = 2, *,
                     backend: str = "gloo", **kwargs) -> RunResult:
        """Call ``function()`` on ``world_size`` ranks inside an initialized default process group.

        ``function`` must be a module-level function of a module that has a file (the ranks
        load that file; they are not forks of the calling process). Each rank runs
        ``dist.init_process_group(backend)``, calls it, then ``dist.barrier()`` and
        ``dist.destroy_process_group()``; what it prints is captured per rank. Other keyword
        arguments are those of :meth:`run` (``env``, ``timeout``, ``cwd``, ...)::

            def check_sum():
                t = torch.ones(1)
                dist.all_reduce(t)
                print(t.item())

            result = server.run_function(check_sum, world_size=3).check()
            assert [r.stdout.strip() for r in result.ranks] == ["3.0"] * 3
        """
        module, name = function.__module__, function.__qualname__
        source = getattr(sys.modules.get(module), "__file__", None)
        if "<" in name or module == "__main__" or source is None:
            raise ValueError(f"{name} must be a module-level function of a module with a file")
        with tempfile.TemporaryDirectory(prefix="ranktest-function-") as tmp:
            script = Path(tmp, f"run_{name}.py")
            script.write_text(_FUNCTION_SCRIPT.format(source=source, module=module, name=name,
                                                      backend=backend))
            kwargs.setdefault("cwd", os.getcwd())
            return self.run(script, world_size, distributed=True, **kwargs)

    def _send(self, request: protocol.RunRequest) -> None:
        try:
            self._proc.stdin.write(protocol.encode(request))
            self._proc.stdin.flush()
        except OSError as exc:
            self._fail(f"could not reach the harness server: {exc}")

    def _receive(self, expected: type, timeout: float):
        result: list[bytes] = []
        reader = threading.Thread(target=lambda: result.append(self._proc.stdout.readline()), daemon=True)
        reader.start()
        reader.join(timeout)
        if not result or not result[0]:
            reason = "stopped answering" if not result else f"exited with {self._proc.poll()}"
            self._fail(f"the harness server {reason}")
        try:
            message = protocol.decode(result[0])
        except protocol.ProtocolError as exc:
            self._fail(f"the harness server sent {exc}")
        if isinstance(message, protocol.Refused) and expected is protocol.Ready:
            self._fail(f"the harness server cannot run ranks here: {message.reason}", ServerRefused)
        if not isinstance(message, expected):
            self._fail(f"the harness server sent {type(message).__name__} where {expected.__name__} was due")
        return message

    def _fail(self, message: str, error: type[HarnessError] = HarnessError) -> None:
        """Kill the server and raise ``error``; the next call starts a fresh server."""
        proc, self._proc, self._caps = self._proc, None, None
        if proc is not None:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            proc.wait()
            _close_pipes(proc)
        raise error(message)


def _close_pipes(proc: subprocess.Popen) -> None:
    """Close the server's stdin and stdout, one of which may already be closed or broken."""
    for pipe in (proc.stdin, proc.stdout):
        try:
            pipe.close()
        except OSError:
            pass


def _run_env(distributed: bool, extra: dict[str, str] | None) -> dict[str, str]:
    """The ranks' environment: this process's, torchrun's defaults for a distributed run, ``extra``."""
    env = dict(os.environ)
    if distributed:
        env.setdefault("OMP_NUM_THREADS", "1")  # as torchrun does
        env.setdefault("GLOO_SOCKET_IFNAME", "lo")
        env.setdefault("NCCL_SOCKET_IFNAME", "lo")
        # c10d looks up the peer's host name (reverse DNS) of every store connection, only to
        # log it; a resolver that drops a query stalls the rendezvous for 5 s. Fail faster.
        env.setdefault("RES_OPTIONS", "timeout:1 attempts:3")
    env.update(extra or {})
    return env


_FUNCTION_SCRIPT = """\
import importlib.util, sys
spec = importlib.util.spec_from_file_location({module!r}, {source!r})
module = sys.modules[{module!r}] = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
import torch.distributed as dist
dist.init_process_group({backend!r})
getattr(module, {name!r})()
dist.barrier()
dist.destroy_process_group()
"""


def _read(outdir: str, rank: int, stream: str) -> str:
    path = output_file(outdir, rank, stream)
    return path.read_text(encoding="utf-8", errors="replace") if path.exists() else ""
