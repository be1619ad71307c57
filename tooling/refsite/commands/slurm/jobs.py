"""Talking to Slurm for ``make doctest-slurm``: the partition's node shape, submitting a
planned job, watching the set, cancelling it, and reading back what a finished job left in its
directory. Uses Slurm's own commands (``sinfo``, ``sbatch``, ``squeue``, ``scontrol``,
``sacct``, ``scancel``) on the machine it runs on, a login node.
"""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
import subprocess
from pathlib import Path

from refsite.commands.slurm import plan as slurm_plan
from ranktest.torchrun import rank_logs

#: Job states in which Slurm has finished with a job, and those that mean Slurm ended it
#: (the snippet did not get to say how it went).
DONE = ("COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY",
        "PREEMPTED", "BOOT_FAIL", "DEADLINE")
ENDED_BY_SLURM = ("CANCELLED", "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY", "PREEMPTED", "BOOT_FAIL",
                  "DEADLINE")
COMMANDS = ("sinfo", "sbatch", "squeue", "scontrol", "scancel")


class SlurmError(RuntimeError):
    """Slurm refused or failed a request; the message has its output."""


def missing_commands() -> list[str]:
    """Slurm's commands this machine lacks (a login node has them all)."""
    return [c for c in COMMANDS if shutil.which(c) is None]


def _run(argv: list[str], timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run(argv, capture_output=True, text=True, timeout=timeout)


def node_shape(partition: str | None) -> slurm_plan.NodeShape:
    """The smallest node of ``partition`` (default: Slurm's default partition): CPUs and GPUs,
    from ``sinfo`` (``%c`` and ``%G``, e.g. ``gpu:4`` or ``gpu:h100:8(S:0-1)``)."""
    done = _run(["sinfo", "-h", "-o", "%c %G", *(["-p", partition] if partition else [])])
    rows = [line.split(maxsplit=1) for line in done.stdout.splitlines() if line.strip()]
    if done.returncode or not rows:
        raise SlurmError(f"sinfo found no nodes in partition {partition or '(default)'}: "
                         f"{done.stdout}{done.stderr}".rstrip())
    shapes = []
    for cpus, gres in rows:
        counts = [int(n) for n in re.findall(r"gpu(?::[\w.-]+)?:(\d+)", gres)]
        shapes.append(slurm_plan.NodeShape(int(cpus.rstrip("+")), sum(counts)))
    return min(shapes, key=lambda s: (s.gpus, s.cpus))


def submit(script: Path, job_dir: Path) -> int:
    """``sbatch`` the script (its ``#SBATCH`` lines say the resources), run in ``job_dir``."""
    done = _run(["sbatch", "--parsable", f"--chdir={job_dir}", str(script)])
    first = done.stdout.strip().split(";")[0]
    if done.returncode or not first.isdigit():
        raise SlurmError(f"sbatch {script} failed ({done.returncode}): {(done.stderr or done.stdout).strip()}")
    return int(first)


def queue_states(job_ids: list[int]) -> dict[int, str]:
    """The state of each job still in the queue (``PENDING``, ``RUNNING``, ...); a finished job
    may be missing (ask :func:`final_state`)."""
    if not job_ids:
        return {}
    done = _run(["squeue", "-h", "-o", "%i %T", "-j", ",".join(map(str, job_ids))])
    states = {}
    for line in done.stdout.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0].isdigit():
            states[int(parts[0])] = parts[1]
    return states


def final_state(job_id: int) -> tuple[str, str]:
    """A job's state and exit code (``"0:0"``) from ``scontrol``, or from ``sacct`` once the
    controller has forgotten it; ``("UNKNOWN", "")`` when neither knows it."""
    shown = _run(["scontrol", "show", "job", "-o", str(job_id)])
    fields = dict(re.findall(r"(\w+)=(\S*)", shown.stdout))
    if shown.returncode == 0 and "JobState" in fields:
        return fields["JobState"], fields.get("ExitCode", "")
    if shutil.which("sacct"):
        acct = _run(["sacct", "-n", "-X", "-P", "-o", "State,ExitCode", "-j", str(job_id)])
        rows = [line.split("|") for line in acct.stdout.splitlines() if "|" in line]
        if acct.returncode == 0 and rows:
            return rows[0][0].split()[0], rows[0][1]
    return "UNKNOWN", ""


def cancel(job_ids: list[int]) -> None:
    """``scancel`` every job of ``job_ids`` (those already finished are left as they are)."""
    if job_ids:
        _run(["scancel", *map(str, job_ids)])


@dataclasses.dataclass(frozen=True)
class JobFiles:
    """What a finished job left in its directory."""

    exit_code: int | None          # the launcher's exit status; None if the launch never ended
    provenance: dict | None        # slurm_probe's JSON; None if the probe did not run
    stdouts: tuple[str, ...]       # per global rank
    stderrs: tuple[str, ...]
    launcher: str                  # the batch script's and each node's launcher output

    def report(self) -> str:
        lines = [f"launcher exit status: {self.exit_code}", self.launcher.rstrip()]
        for rank, (out, err) in enumerate(zip(self.stdouts, self.stderrs)):
            lines += [f"--- rank {rank} stdout ---", out.rstrip(), f"--- rank {rank} stderr ---", err.rstrip()]
        return "\n".join(lines)


def read_job_files(job: slurm_plan.JobPlan, job_dir: Path) -> JobFiles:
    """The files of ``job`` in ``job_dir``: rank ``r`` ran on node ``r // ranks_per_node`` as
    its local rank ``r % ranks_per_node`` (the static rendezvous's numbering)."""
    exit_file = job_dir / slurm_plan.EXIT_CODE
    text = exit_file.read_text().strip() if exit_file.exists() else ""
    exit_code = int(text) if text.lstrip("-").isdigit() else None
    probe = job_dir / slurm_plan.PROVENANCE
    try:
        provenance = json.loads(probe.read_text()) if probe.exists() else None
    except ValueError:
        provenance = None
    outs, errs = [], []
    for rank in range(job.variant.world_size):
        node_dir = job_dir / slurm_plan.RANK_LOGS / f"node{rank // job.ranks_per_node}"
        if job.spec.torchrun:
            out, err = rank_logs(node_dir, rank % job.ranks_per_node)
        else:
            out, err = (_read(node_dir / "stdout.log"), _read(node_dir / "stderr.log"))
        outs.append(out)
        errs.append(err)
    launchers = sorted(job_dir.glob(slurm_plan.LAUNCHER.replace("%t", "*")))
    launcher = "\n".join(f"--- {p.name} ---\n{_read(p).rstrip()}" for p in launchers)
    return JobFiles(exit_code, provenance, tuple(outs), tuple(errs), launcher)


def _read(path: Path) -> str:
    return path.read_text(errors="replace") if path.exists() else ""
