"""What a finished doctest job means (``make doctest-slurm``), held to the same checks as
``make doctest`` and recorded by the same writer as ``make outputs``; the table of outcomes and
the JUnit XML report of a run.

Three kinds of failure are kept apart: a snippet that failed (its launch exited non-zero, a rank
wrote to stderr, or its output differs from the record), a job Slurm ended (time limit, node
failure, out of memory, cancelled: the snippet never said how it went), and a job that failed
before the snippet started (the job's Python has no torch, say).
"""

from __future__ import annotations

import dataclasses
import xml.etree.ElementTree as ET
from pathlib import Path

from refsite import snippets
from refsite.testing import machine, snippet_runs
from refsite.commands.slurm import jobs as slurm_jobs, plan as slurm_plan

#: How a variant ended, in the order the table lists them.
OWN, CPU, CLEAN, WRITTEN = ("verified against its own record", "verified against the CPU record",
                            "ran clean, not recorded yet", "recorded")
SNIPPET_FAILED, ENDED_BY_SLURM, JOB_FAILED, NOT_SUBMITTED = (
    "snippet failed", "ended by Slurm", "job failed before the snippet ran",
    "not submitted (no node can hold it)")
OUTCOMES = (OWN, CPU, CLEAN, WRITTEN, SNIPPET_FAILED, ENDED_BY_SLURM, JOB_FAILED, NOT_SUBMITTED)
FAILURES = (SNIPPET_FAILED, ENDED_BY_SLURM, JOB_FAILED)


@dataclasses.dataclass(frozen=True)
class Result:
    """One variant's outcome: ``outcome`` from :data:`OUTCOMES`, ``detail`` the report."""

    case: str                   # area/name[variant]
    outcome: str
    detail: str = ""
    job_id: int | None = None
    state: str = ""             # Slurm's final state
    seconds: float = 0.0


def evaluate(job: slurm_plan.JobPlan, job_id: int, state: str, files: slurm_jobs.JobFiles, *,
             write: bool, seconds: float = 0.0) -> Result:
    """The outcome of a finished job: compared with its record, or (``write``) recorded."""
    case = snippet_runs.case_id(job.spec, job.variant)
    label = f"{job.rel} [{job.variant.id}] (Slurm job {job_id})"
    done = dict(job_id=job_id, state=state, seconds=seconds)
    if state in slurm_jobs.ENDED_BY_SLURM:
        why = f"{label}: Slurm ended the job: {state}" + _ended_hint(state, job)
        return Result(case, ENDED_BY_SLURM, f"{why}\n{files.report()}", **done)
    if files.exit_code is None:
        why = ("the provenance probe failed: is torch importable with the job's Python?"
               if files.provenance is None else "its launch did not finish")
        return Result(case, JOB_FAILED, f"{label}: the job ended ({state}) before the snippet "
                      f"ran to its end ({why})\n{files.launcher}", **done)
    if problem := snippet_runs.clean_run_problem(label, files.exit_code == 0, files.stderrs, files.report()):
        return Result(case, SNIPPET_FAILED, problem, **done)
    if write:
        record = snippets.Record.from_run(job.spec, job.variant, job.rel, files.provenance["torch"],
                                          files.stdouts, _gpu(job, files.provenance))
        snippets.write_record(job.spec.record_path(job.variant), record)
        return Result(case, WRITTEN, **done)
    compare_with, outcome = job.variant, OWN
    if job.variant.device != "cpu" and not job.spec.record_path(job.variant).exists():
        compare_with = job.spec.reference(job.variant)
        if compare_with is None:
            return Result(case, CLEAN, **done)
        outcome = CPU
    if problem := snippet_runs.record_problem(job.spec, compare_with, files.stdouts, label,
                                              str(job.spec.path)):
        return Result(case, SNIPPET_FAILED, problem, **done)
    return Result(case, outcome, **done)


def _ended_hint(state: str, job: slurm_plan.JobPlan) -> str:
    if state == "TIMEOUT":
        return (f" (its time limit, {job.time_min} min, is the snippet's timeout plus "
                f"{slurm_plan.JOB_OVERHEAD_S} s; raise its Timeout: header if it needs longer)")
    if state == "OUT_OF_MEMORY":
        return " (the node's memory limit; the job asked for Slurm's default memory)"
    return ""


def _gpu(job: slurm_plan.JobPlan, provenance: dict) -> snippets.GpuProvenance | None:
    """A GPU variant's GPUs as its record names them (the job's count, the probe's model and
    versions), by the rule every runner uses (:func:`machine.gpu_provenance`)."""
    if job.variant.device == "cpu":
        return None
    return machine.gpu_provenance(job.variant.gpus, provenance.get("gpu"))


def table(results: list[Result]) -> list[str]:
    """The outcome counts (every outcome that occurred, and the verified ones always), then
    each failure's case and job."""
    lines = []
    for outcome in OUTCOMES:
        count = sum(1 for r in results if r.outcome == outcome)
        if count or outcome == OWN:
            lines.append(f"{count:6d}  {outcome}")
    for r in results:
        if r.outcome in FAILURES:
            lines.append(f"        {r.outcome}: {r.case}" + (f" (job {r.job_id}, {r.state})" if r.job_id else ""))
    return lines


def write_junit(results: list[Result], path: Path) -> None:
    """JUnit XML: a snippet failure is a ``failure``, a job Slurm ended or that failed before
    the snippet is an ``error``, a variant no node can hold is ``skipped``; every case carries
    its ``outcome`` and Slurm job id as properties."""
    suite = ET.Element("testsuite", name="doctest-slurm", tests=str(len(results)),
                       failures=str(sum(r.outcome == SNIPPET_FAILED for r in results)),
                       errors=str(sum(r.outcome in (ENDED_BY_SLURM, JOB_FAILED) for r in results)),
                       skipped=str(sum(r.outcome == NOT_SUBMITTED for r in results)),
                       time=f"{sum(r.seconds for r in results):.1f}")
    for r in results:
        area, _, name = r.case.partition("/")
        case = ET.SubElement(suite, "testcase", classname=f"snippets.{area}", name=name, time=f"{r.seconds:.1f}")
        props = ET.SubElement(case, "properties")
        ET.SubElement(props, "property", name="outcome", value=r.outcome)
        if r.job_id is not None:
            ET.SubElement(props, "property", name="slurm_job", value=f"{r.job_id} {r.state}")
        tag = {SNIPPET_FAILED: "failure", ENDED_BY_SLURM: "error", JOB_FAILED: "error",
               NOT_SUBMITTED: "skipped"}.get(r.outcome)
        if tag:
            ET.SubElement(case, tag, message=r.detail.splitlines()[0] if r.detail else r.outcome).text = r.detail
    path.parent.mkdir(parents=True, exist_ok=True)
    root = ET.Element("testsuites")
    root.append(suite)
    ET.ElementTree(root).write(path, encoding="utf-8", xml_declaration=True)
