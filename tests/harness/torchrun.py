"""Run a snippet the way a reader does: copied alone into an empty directory, under real torchrun."""

from __future__ import annotations

import dataclasses
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import snippetspec

#: Variables a launcher sets for its workers; a run started from inside a worker drops them.
_LAUNCHER_VARS = ("RANK", "LOCAL_RANK", "WORLD_SIZE", "LOCAL_WORLD_SIZE", "MASTER_ADDR",
                  "MASTER_PORT", "GROUP_RANK", "ROLE_RANK", "TORCHELASTIC_")


@dataclasses.dataclass(frozen=True)
class TorchrunResult:
    """The launcher's exit status and output, and each rank's stdout/stderr from its log files."""

    returncode: int
    launcher_output: str
    stdout: tuple[str, ...]
    stderr: tuple[str, ...]

    def report(self) -> str:
        lines = [f"torchrun exited with {self.returncode}", self.launcher_output.rstrip()]
        for rank, (out, err) in enumerate(zip(self.stdout, self.stderr)):
            lines += [f"--- rank {rank} stdout ---", out.rstrip(), f"--- rank {rank} stderr ---", err.rstrip()]
        return "\n".join(lines)


def torchrun_executable() -> list[str]:
    """The torchrun of the Python running this code (the same torch as the harness)."""
    script = Path(sys.executable).with_name("torchrun")
    return [str(script)] if script.exists() else [sys.executable, "-m", "torch.distributed.run"]


def kill_tree(proc: subprocess.Popen) -> None:
    """SIGKILL ``proc`` and all its descendants, then reap it. torchrun starts each worker in a
    session of its own, so a process-group kill would miss them; they are found through /proc."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    todo, tree = [proc.pid], []
    while todo:
        pid = todo.pop()
        tree.append(pid)
        todo.extend(children.get(pid, []))
    for pid in reversed(tree):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    proc.wait()


def torchrun_command(spec: snippetspec.Spec, log_dir: Path) -> list[str]:
    """The snippet's ``Run:`` line with this environment's torchrun and per-rank log files."""
    words = shlex.split(spec.run)
    if words[0] != "torchrun":
        raise ValueError(f"{spec.path}: not a torchrun snippet: {spec.run!r}")
    return [*torchrun_executable(), "--log-dir", str(log_dir), "--redirects", "3", *words[1:]]


#: Put on every worker's ``PYTHONPATH``: reports a process group left alive at exit.
EXIT_CHECK_DIR = Path(__file__).with_name("exitcheck")


def run_alone(spec: snippetspec.Spec, variant: snippetspec.Variant, timeout: float = 120) -> TorchrunResult:
    """Copy the snippet alone into a fresh directory and run its command there.

    Each worker also imports :mod:`harness.exitcheck.sitecustomize`, which writes an error to
    its stderr if a process group is still alive when the script ends. On a timeout, the
    launcher and every worker are killed and :class:`subprocess.TimeoutExpired` is raised.
    """
    with tempfile.TemporaryDirectory(prefix="torchrun-alone-") as tmp:
        work = Path(tmp, "work")
        work.mkdir()
        shutil.copy(spec.path, work / spec.path.name)
        logs = Path(tmp, "logs")
        env = {k: v for k, v in os.environ.items() if not k.startswith(_LAUNCHER_VARS)}
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(EXIT_CHECK_DIR), env.get("PYTHONPATH")]))
        with subprocess.Popen(torchrun_command(spec, logs), cwd=work, env={**env, **variant.env},
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) as proc:
            try:
                output, _ = proc.communicate(timeout=timeout)
            finally:
                kill_tree(proc)  # the workers too, when the launcher timed out
        attempt = max(logs.glob("*/attempt_*"), default=None)

        def read(rank: int, name: str) -> str:
            path = attempt / str(rank) / name if attempt else None
            return path.read_text(errors="replace") if path and path.exists() else ""

        ranks = range(variant.world_size)
        return TorchrunResult(proc.returncode, output, tuple(read(r, "stdout.log") for r in ranks),
                              tuple(read(r, "stderr.log") for r in ranks))
