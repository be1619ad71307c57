"""Running snippets and holding them to their records: shared by the snippet collector, the
soak test, the copied-alone torchrun test and ``make bench``.

A check returns the failure's whole report (a string naming the snippet, the variant and the
fix) or ``None``; callers turn it into a test failure. Imports no torch.
"""

from __future__ import annotations

import dataclasses
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from refsite import snippets
from refsite.snippets import references
from ranktest import Forkserver, RunResult
from ranktest.exitcheck import startup_env
from ranktest.torchrun import clean_env, kill_tree, launch_warm, rank_logs, torchrun_args, torchrun_argv

#: Modules the project's server imports once. ``torch._dynamo`` is imported lazily by
#: DistributedDataParallel and optimizers and costs over a second per process otherwise.
#: Preloaded, it also imports ``torch.distributed.nn`` before any process group exists, which
#: hides a leak a fresh process has: the copied-alone torchrun check reports it.
#: ``torch.utils.cpp_extension`` is what inductor imports to build C++; on a machine with the CUDA
#: toolkit but no GPU its import logs "No CUDA runtime is found" once, which would otherwise be
#: the first compiling snippet's stderr (a fact of the machine, not the example); it is imported
#: through :mod:`refsite.testing.cpp_extension_preload`, which keeps that line off the terminal.
#: Its import calls ``torch.cuda.is_available()``: the server imports the preload with NVML
#: answering that (``ranktest._server.NVML_CHECK``), or no rank could use a GPU.
PRELOAD = ("torch", "torch.distributed", "torch._dynamo", "torch.nn.parallel", "torch.optim",
           "refsite.testing.cpp_extension_preload", "numpy")


def project_server() -> Forkserver:
    """A forkserver as the project runs snippets: the teardown rule checked, PRELOAD imported."""
    return Forkserver(preload=PRELOAD, check_teardown=True)


def fix_hint(target: str) -> str:
    """How to re-record ``target`` (a snippet path or a pytest node id)."""
    return f"run '{snippets.FIX_COMMAND}' (or: pytest {target} --write-outputs) and review the diff"


def cpu_variants(root: Path, *, torchrun_only: bool = False,
                 distributed_only: bool = False) -> list[tuple[snippets.Spec, snippets.Variant]]:
    """Every CPU variant of every snippet under ``root``: of ``torchrun`` snippets only, or of
    distributed ones only (``torchrun`` snippets and those that start processes themselves)."""
    cases = []
    for path in snippets.snippet_paths(root):
        spec = snippets.read_spec(path)
        if torchrun_only and not spec.torchrun:
            continue
        if distributed_only and not spec.multi_process:
            continue
        cases += [(spec, v) for v in spec.variants if v.device == "cpu"]
    return cases


def case_id(spec: snippets.Spec, variant: snippets.Variant) -> str:
    """A test id such as ``all_reduce[gloo-cpu-2]`` (``-k`` selects on it)."""
    return f"{spec.path.parent.name}/{spec.path.stem}[{variant.id}]"


def device_record_problems(root: Path) -> list[str]:
    """For every snippet under ``root`` that declares ``Output: same on all devices``: each
    non-CPU record that exists must hold what its CPU reference record holds."""
    problems = []
    for path in snippets.snippet_paths(root):
        spec = snippets.read_spec(path)
        for variant in spec.variants:
            reference = spec.reference(variant)
            own = references.record_of(spec, variant)
            if reference is None or own.missing:
                continue
            want = references.record_of(spec, reference)
            diffs = snippets.output_diff(want.current(stale_ok=True), own.current(stale_ok=True).ranks,
                                         want.record_path.name)
            if diffs:
                problems.append(f"{own.record_path}: 'Output: same on all devices', but it differs "
                                f"from the {reference.id} record:\n" + "\n".join(diffs))
    return problems


#: Seconds a snippet may run when neither its ``Timeout:`` header nor ``--snippet-timeout`` says:
#: through the harness, and copied alone (a fresh launch first imports torch in every process).
HARNESS_TIMEOUT_S = 60.0
ALONE_TIMEOUT_S = 120.0


def timeout_of(spec: snippets.Spec, given: float | None, default: float) -> float:
    """How long a run of ``spec`` may take, the one precedence every runner uses (the harness,
    the copied-alone launch, the soak, ``make compat``): the snippet's ``Timeout:`` header, then
    the command line's ``--snippet-timeout`` (``given``), then ``default``."""
    return float(spec.timeout or given or default)


def run_variant(server: Forkserver, spec: snippets.Spec, variant: snippets.Variant, timeout: float | None = None,
                strict_warnings: bool = True, at_most: float | None = None) -> RunResult:
    """One run of ``variant`` through ``server`` (its timeout: :func:`timeout_of`, or ``at_most``
    seconds when that is shorter); ``strict_warnings=False`` runs it as a reader would, a
    deprecation warning not an error."""
    limit = timeout_of(spec, timeout, HARNESS_TIMEOUT_S)
    return server.run(spec.path, variant.world_size, env=variant.env, distributed=spec.distributed,
                      timeout=min(limit, at_most) if at_most else limit, strict_warnings=strict_warnings)


def clean_run_problem(label: str, ok: bool, stderrs: tuple[str, ...], report: str) -> str | None:
    """Why a run was not clean (failed, or wrote to stderr), or ``None``."""
    if not ok:
        return report
    noisy = [str(rank) for rank, err in enumerate(stderrs) if err.strip()]
    if noisy:
        return (f"{label}: a clean run must write nothing to stderr, but rank(s) {', '.join(noisy)} "
                f"did (warnings are errors here):\n{report}")
    return None


def record_problem(spec: snippets.Spec, variant: snippets.Variant, stdouts: tuple[str, ...],
                   label: str, target: str) -> str | None:
    """Why ``stdouts`` do not match the variant's record (changed, stale, missing, unparsable)."""
    found = references.record_of(spec, variant)
    if found.record is None:
        return str(found.problem)
    diffs = snippets.output_diff(found.record, stdouts, found.record_path.name)
    if diffs:
        return f"{label}: output changed; {fix_hint(target)}\n" + "\n".join(diffs)
    if found.stale:
        return f"{found.record_path}: stale: {found.stale}; {fix_hint(target)}"
    return None


def harness_problem(result: RunResult, spec: snippets.Spec, variant: snippets.Variant,
                    label: str, target: str) -> str | None:
    """The whole check of one harness run: clean, and as recorded."""
    stdouts = tuple(r.stdout for r in result.ranks)
    return (clean_run_problem(label, result.ok, tuple(r.stderr for r in result.ranks), result.report())
            or record_problem(spec, variant, stdouts, label, target))


@dataclasses.dataclass(frozen=True)
class LaunchResult:
    """A copied-alone launch: its exit status, the launcher's output, each rank's stdout and stderr."""

    returncode: int
    launcher_output: str
    stdout: tuple[str, ...]
    stderr: tuple[str, ...]

    def report(self) -> str:
        lines = [f"torchrun exited with {self.returncode}", self.launcher_output.rstrip()]
        for rank, (out, err) in enumerate(zip(self.stdout, self.stderr)):
            lines += [f"--- rank {rank} stdout ---", out.rstrip(), f"--- rank {rank} stderr ---", err.rstrip()]
        return "\n".join(lines)


def run_alone(spec: snippets.Spec, variant: snippets.Variant, timeout: float | None = None, *,
              text: str | None = None, server: Forkserver | None = None) -> LaunchResult:
    """Copy the snippet alone into a fresh directory and run its ``Run:`` command there
    (``torchrun ...``, or ``python FILE`` with this interpreter). ``text``: what the copy holds
    instead of the snippet's own text (its Chinese-commented file, say), under the same name.
    ``server``: a ``torchrun`` launch's agent is forked from it (:func:`ranktest.torchrun.launch_warm`:
    torchrun's own entry point with the same arguments, one torch import fewer; the workers are
    fresh processes either way); without it the ``torchrun`` executable is started.

    Every process also runs :func:`ranktest.exitcheck.report_at_exit`, which writes an error to
    its stderr if a process group is still alive when the script ends. On a timeout
    (:func:`timeout_of`), the launcher and every worker are killed and
    :class:`subprocess.TimeoutExpired` is raised.
    """
    timeout = timeout_of(spec, timeout, ALONE_TIMEOUT_S)
    words = shlex.split(spec.run)  # read_spec has checked that it starts with torchrun or python
    with tempfile.TemporaryDirectory(prefix="run-alone-") as tmp:
        work, logs = Path(tmp, "work"), Path(tmp, "logs")
        work.mkdir()
        if text is None:
            shutil.copy(spec.path, work / spec.path.name)
        else:
            (work / spec.path.name).write_text(text, encoding="utf-8")
        env = startup_env({**clean_env(dict(os.environ)), **variant.env})
        if spec.torchrun and server is not None:
            launch = launch_warm(server, torchrun_args(words[1:], logs), cwd=work, env=env, timeout=timeout)
            if launch.timed_out:
                raise subprocess.TimeoutExpired(spec.run, timeout)
            agent = launch.ranks[0]
            returncode, output = agent.returncode, agent.stdout + agent.stderr
        else:
            argv = torchrun_argv(words[1:], logs) if spec.torchrun else [sys.executable, *words[1:]]
            with subprocess.Popen(argv, cwd=work, env=env, text=True, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT if spec.torchrun else subprocess.PIPE) as proc:
                try:
                    output, errors = proc.communicate(timeout=timeout)
                finally:
                    kill_tree(proc)  # the workers too, when the launcher timed out
            returncode = proc.returncode
            if not spec.torchrun:
                return LaunchResult(returncode, "", (output,), (errors,))
        logs_by_rank = [rank_logs(logs, rank) for rank in range(variant.world_size)]
    return LaunchResult(returncode, output, tuple(out for out, _ in logs_by_rank),
                        tuple(err for _, err in logs_by_rank))


def alone_problem(spec: snippets.Spec, variant: snippets.Variant, *, timeout: float | None = None,
                  localized_text: str | None = None, server: Forkserver | None = None) -> str | None:
    """One copied-alone launch by the ``Run:`` line: exit 0, nothing on stderr (no abort, no
    process group left alive at exit), every rank's output as recorded. ``localized_text``:
    launch the snippet's Chinese-commented file instead (the same program, held to the same
    record). ``server``: see :func:`run_alone`."""
    result = run_alone(spec, variant, timeout, text=localized_text, server=server)
    which = " (Chinese comments)" if localized_text is not None else ""
    label = f"{spec.path.name}{which} [{variant.id}] copied alone, run by: {spec.run}"
    return (clean_run_problem(label, result.returncode == 0, result.stderr, result.report())
            or record_problem(spec, variant, result.stdout, label, str(spec.path)))
