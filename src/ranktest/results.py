"""What a run produced: each rank's outcome, the run's, and the errors the client raises."""

from __future__ import annotations

import dataclasses
import signal


class HarnessError(RuntimeError):
    """The server itself failed (not a rank): it died, or stopped answering."""


class ServerRefused(HarnessError):
    """The server started but cannot serve runs on this machine, and said why (its message):
    starting it again would fail the same way."""


class RankFailure(AssertionError):
    """A run failed; ``str()`` is the report naming each failed rank with its traceback or stack."""


@dataclasses.dataclass(frozen=True)
class Capabilities:
    """What the server's torch can do: version, CUDA devices, process-group backends built in,
    and, where there are CUDA devices, what they are (``gpu``)."""

    torch: str
    cuda_devices: int
    backends: dict[str, bool]
    #: With CUDA devices: ``model`` (of device 0), ``driver`` (from ``nvidia-smi``; ``""`` if it
    #: cannot tell), ``cuda`` (the CUDA torch was built with) and ``nccl`` (torch's NCCL).
    gpu: dict[str, str] | None = None


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
        """A readable account: the headline, then each rank's status, its stderr and stdout,
        the first failed rank first."""
        if self.timed_out:
            running = ", ".join(str(r.rank) for r in self.ranks if r.stopped)
            head = (f"timed out after {self.timeout:g} s; rank(s) {running} still running "
                    f"(their stacks are below)")
        elif self.first_failure is not None:
            first = self.ranks[self.first_failure]
            head = f"rank {first.rank} failed first ({first.describe()})"
        else:
            head = "all ranks succeeded"
        lines = [f"{self.script} on {self.world_size} rank(s): {head}"]
        for r in sorted(self.ranks, key=lambda r: (r.rank != self.first_failure, r.rank)):
            lines.append(f"--- rank {r.rank}: {r.describe()} ---")
            if r.stderr.strip():
                lines += ["stderr:", r.stderr.rstrip()]
            if r.stdout.strip():
                lines += ["stdout:", r.stdout.rstrip()]
        return "\n".join(lines)

    def check(self) -> RunResult:
        """Raise :class:`RankFailure` with :meth:`report` unless every rank exited 0."""
        if not self.ok:
            raise RankFailure(self.report())
        return self
