"""Run a script on N ranks through the warm server, and describe what happened."""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Callable

#: Seconds a run may take when neither the caller nor the snippet says otherwise.
DEFAULT_TIMEOUT_S = 60.0
#: Modules the server imports once, so that ranks start with them loaded. ``torch._dynamo`` is
#: imported lazily by DistributedDataParallel and costs over a second per process otherwise.
#: Preloaded, it also imports ``torch.distributed.nn`` before any process group exists, which
#: hides a leak a fresh process has (see ``tests/test_torchrun.py``, which runs every snippet
#: under real torchrun and checks for it).
PRELOAD = ("torch", "torch.distributed", "torch._dynamo", "torch.nn.parallel", "torch.optim", "numpy")
#: Extra seconds the client waits for the server's reply beyond the run's own timeout.
_REPLY_SLACK_S = 15.0


class HarnessError(RuntimeError):
    """The server itself failed (not a rank): it died, or stopped answering."""


class RankFailure(AssertionError):
    """A run failed; ``str()`` is the report naming each failed rank with its traceback or stack."""


@dataclasses.dataclass(frozen=True)
class Capabilities:
    """What the server's torch can do: version, CUDA devices, process-group backends built in."""

    torch: str
    cuda_devices: int
    backends: dict[str, bool]


@dataclasses.dataclass(frozen=True)
class RankResult:
    """One rank's outcome. ``returncode`` is negative for a signal, as in :mod:`subprocess`."""

    rank: int
    returncode: int
    stdout: str
    stderr: str
    stopped: bool  # killed by the harness (timeout, or after another rank failed)

    def describe(self) -> str:
        if self.stopped:
            return "still running; stopped by the harness"
        if self.returncode < 0:
            return f"killed by signal {signal.Signals(-self.returncode).name}"
        return f"exit code {self.returncode}"


@dataclasses.dataclass(frozen=True)
class RunResult:
    """Everything a run produced, ranks in order."""

    script: str
    world_size: int
    ranks: tuple[RankResult, ...]
    first_failure: int | None  # the rank whose failure happened first (not the first exit seen)
    timed_out: bool
    timeout: float
    elapsed: float

    @property
    def ok(self) -> bool:
        return not self.timed_out and all(r.returncode == 0 for r in self.ranks)

    def report(self) -> str:
        """A readable account: the headline, then each rank's status and its stderr."""
        if self.timed_out:
            running = [r.rank for r in self.ranks if r.stopped]
            head = (f"timed out after {self.timeout:g} s; rank(s) {_ranks(running)} still running "
                    f"(their stacks are below)")
        elif self.first_failure is not None:
            first = self.ranks[self.first_failure]
            head = f"rank {first.rank} failed first ({first.describe()})"
        else:
            head = "all ranks succeeded"
        lines = [f"{self.script} on {self.world_size} rank(s): {head}"]
        order = sorted(self.ranks, key=lambda r: (r.rank != self.first_failure, r.rank))
        for r in order:
            lines.append(f"--- rank {r.rank}: {r.describe()} ---")
            if r.stderr.strip():
                lines.append("stderr:")
                lines.append(r.stderr.rstrip())
            if r.stdout.strip():
                lines.append("stdout:")
                lines.append(r.stdout.rstrip())
        return "\n".join(lines)

    def check(self) -> RunResult:
        """Raise :class:`RankFailure` with :meth:`report` unless every rank exited 0."""
        if not self.ok:
            raise RankFailure(self.report())
        return self


def _ranks(ranks: list[int]) -> str:
    return ", ".join(map(str, ranks))


class Forkserver:
    """A warm Python process with torch imported, forking one process per rank for each run.

    Use one per test process (it is not shared between processes)::

        with Forkserver() as server:
            result = server.run("all_reduce.py", world_size=2).check()
            print(result.ranks[1].stdout)

    The server and every rank die with this process, however it ends.
    """

    def __init__(self, python: str = sys.executable, preload: tuple[str, ...] = PRELOAD):
        self._python = python
        self._preload = preload
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

    def start(self) -> None:
        """Start the server and wait until torch is imported (about two seconds)."""
        if self._proc is not None:
            return
        env = dict(os.environ, PYTHONIOENCODING="utf-8", HARNESS_PRELOAD=",".join(self._preload))
        here = str(Path(__file__).resolve().parent.parent)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [here, env.get("PYTHONPATH")]))
        self._proc = subprocess.Popen(
            [self._python, "-m", "harness.server"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            env=env, start_new_session=True,
        )
        ready = self._receive(timeout=120)
        self._caps = Capabilities(ready["torch"], ready["cuda_devices"], ready["backends"])

    def close(self) -> None:
        """Stop the server; ranks still running die with it."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        try:
            proc.stdin.close()
            proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            proc.kill()
            proc.wait()
        proc.stdout.close()

    def run(self, script: str | os.PathLike, world_size: int = 1, *, args: tuple[str, ...] = (),
            env: dict[str, str] | None = None, timeout: float = DEFAULT_TIMEOUT_S,
            cwd: str | os.PathLike | None = None, strict_warnings: bool = True,
            distributed: bool | None = None) -> RunResult:
        """Run ``script`` as ``world_size`` ranks, the way ``torchrun --nproc-per-node`` would.

        Each rank gets torchrun's environment (``RANK``, ``LOCAL_RANK``, ``WORLD_SIZE``,
        ``MASTER_ADDR=127.0.0.1``, ``MASTER_PORT`` of a fresh store made for this run, ...), plus
        ``env``. Runs in the script's directory unless ``cwd`` is given. With ``strict_warnings``,
        DeprecationWarning and FutureWarning are errors. ``distributed`` (default: ``world_size >
        1``) gives a one-rank run its store and variables too. Never raises for a failed rank:
        call :meth:`RunResult.check`.
        """
        script = Path(script).resolve()
        if not script.is_file():
            raise FileNotFoundError(f"no such script: {script}")
        if distributed is None:
            distributed = world_size > 1
        full_env = dict(os.environ)
        if distributed:
            full_env.setdefault("OMP_NUM_THREADS", "1")  # as torchrun does
            full_env.setdefault("GLOO_SOCKET_IFNAME", "lo")
            full_env.setdefault("NCCL_SOCKET_IFNAME", "lo")
            # c10d looks up the peer's host name (reverse DNS) of every store connection, only to
            # log it; a resolver that drops a query stalls the rendezvous for 5 s. Fail faster.
            full_env.setdefault("RES_OPTIONS", "timeout:1 attempts:3")
        full_env.update(env or {})
        with self._lock:
            self.start()
            self._runs += 1
            outdir = tempfile.mkdtemp(prefix="harness-run-")
            try:
                self._send({
                    "op": "run", "argv": [str(script), *args], "world_size": world_size,
                    "env": full_env, "timeout": timeout, "outdir": outdir,
                    "cwd": str(cwd or script.parent), "strict_warnings": strict_warnings,
                    "distributed": distributed, "run_id": f"harness-{os.getpid()}-{self._runs}",
                })
                done = self._receive(timeout=timeout + _REPLY_SLACK_S)
                ranks = tuple(
                    RankResult(r["rank"], r["returncode"], _read(outdir, r["rank"], "stdout"),
                               _read(outdir, r["rank"], "stderr"), r["stopped"])
                    for r in done["ranks"]
                )
            finally:
                shutil.rmtree(outdir, ignore_errors=True)
        return RunResult(str(script), world_size, ranks, done["first_failure"], done["timed_out"],
                         timeout, done["elapsed"])

    def run_function(self, function: Callable[[], object], world_size: int = 2, *,
                     backend: str = "gloo", **kwargs) -> RunResult:
        """Call ``function()`` on ``world_size`` ranks inside an initialized default process group.

        ``function`` must be importable by name (a module-level function), since the ranks are
        not forks of the calling process. Each rank runs ``dist.init_process_group(backend)``,
        calls it, then ``dist.barrier()`` and ``dist.destroy_process_group()``; what it prints
        is captured per rank. Other keyword arguments are those of :meth:`run` (``env``,
        ``timeout``, ``cwd``, ...)::

            def check_sum():
                t = torch.ones(1)
                dist.all_reduce(t)
                print(t.item())

            result = server.run_function(check_sum, world_size=3).check()
            assert [r.stdout.strip() for r in result.ranks] == ["3.0"] * 3
        """
        module, name = function.__module__, function.__qualname__
        if "<" in name or module == "__main__":
            raise ValueError(f"{name} must be a module-level function of an importable module")
        paths = [p for p in sys.path if p]
        with tempfile.TemporaryDirectory(prefix="harness-function-") as tmp:
            script = Path(tmp, f"run_{name}.py")
            script.write_text(_FUNCTION_SCRIPT.format(paths=paths, module=module, name=name,
                                                      backend=backend))
            kwargs.setdefault("cwd", os.getcwd())
            return self.run(script, world_size, distributed=True, **kwargs)

    def _send(self, obj: dict) -> None:
        try:
            self._proc.stdin.write((json.dumps(obj) + "\n").encode())
            self._proc.stdin.flush()
        except OSError as exc:
            self._fail(f"could not reach the harness server: {exc}")

    def _receive(self, timeout: float) -> dict:
        result: list[bytes] = []
        reader = threading.Thread(target=lambda: result.append(self._proc.stdout.readline()), daemon=True)
        reader.start()
        reader.join(timeout)
        if not result or not result[0]:
            reason = "stopped answering" if not result else f"exited with {self._proc.poll()}"
            self._fail(f"the harness server {reason}")
        return json.loads(result[0])

    def _fail(self, message: str) -> None:
        proc, self._proc = self._proc, None
        if proc is not None:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            proc.wait()
            for pipe in (proc.stdin, proc.stdout):
                try:
                    pipe.close()
                except OSError:
                    pass
        raise HarnessError(message)


_FUNCTION_SCRIPT = """\
import importlib, sys
sys.path[:0] = {paths!r}
import torch.distributed as dist
function = getattr(importlib.import_module({module!r}), {name!r})
dist.init_process_group({backend!r})
function()
dist.barrier()
dist.destroy_process_group()
"""


def _read(outdir: str, rank: int, stream: str) -> str:
    path = Path(outdir, f"rank{rank}.{stream}")
    return path.read_text(encoding="utf-8", errors="replace") if path.exists() else ""
