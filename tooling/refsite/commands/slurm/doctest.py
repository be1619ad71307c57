"""``make doctest-slurm``: every selected snippet variant as a Slurm job, on as many GPUs and
nodes as it needs; the same checks and record writer as ``make doctest`` / ``make outputs``.

Usage (on a login node, in the checkout, on a filesystem the compute nodes share)::

    python -m refsite.commands.slurm.doctest [SNIPPETS...] [--partition gpu] [--device cuda]
        [--python /shared/venv/bin/python] [--outputs] [-k all_reduce] [--dry-run]

One job per variant (:mod:`slurm_plan` lays it out and writes its batch script); each job's
directory under ``--work-dir`` keeps its script, the snippet copied alone, every rank's stdout
and stderr and the launchers' output. While jobs wait and run, a line says how many are
pending, running and done; Ctrl-C (or SIGTERM) cancels every job of the run (``scancel``).
At the end: the table of outcomes (:mod:`slurm_results`), JUnit XML, and exit status 1 if any
variant failed. Before submitting, one job step checks the job's Python: its torch must be the
pinned release (``--any-torch`` accepts another; records name the torch that ran).
"""

from __future__ import annotations

import argparse
import datetime
import json
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from refsite import project, snippets
from refsite.testing import snippet_runs
from refsite.commands.slurm import jobs as slurm_jobs, plan as slurm_plan, results as slurm_results

#: Seconds between two looks at the queue, and the longest a progress line is not repeated.
POLL_S, QUIET_S = 2.0, 60.0


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="make doctest-slurm", description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*", type=Path, help="snippet files or folders (default: snippets/)")
    parser.add_argument("--partition", help="the Slurm partition (default: Slurm's default)")
    parser.add_argument("--device", choices=("all", "cpu", "cuda"), default="all",
                        help="which variants: the CPU ones, the GPU ones, or all (default)")
    parser.add_argument("-k", dest="keyword", default="", help="only cases whose id (area/name[variant]) contains this")
    parser.add_argument("--python", default=sys.executable,
                        help="the Python the jobs run (a shared venv, or the site's module or container torch; "
                             "default: this one)")
    parser.add_argument("--outputs", action="store_true", help="write each variant's record instead of comparing")
    parser.add_argument("--ranks-per-node", type=int, help="at most this many ranks on one node (spreads CPU variants too)")
    parser.add_argument("--snippet-timeout", type=float,
                        help="timeout for snippets that set none (their Timeout: header wins)")
    parser.add_argument("--work-dir", type=Path, help="where the jobs' files go; the nodes must see it "
                        "(default: _build/doctest-slurm/<date-time>)")
    parser.add_argument("--junitxml", type=Path, help="JUnit XML report (default: WORK_DIR/junit.xml)")
    parser.add_argument("--any-torch", action="store_true", help="accept a torch other than the pin")
    parser.add_argument("--dry-run", action="store_true", help="write and print the batch scripts, submit nothing")
    return parser.parse_args(argv)


def select(root: Path, args: argparse.Namespace) -> list[tuple[snippets.Spec, snippets.Variant]]:
    """The cases to run: every variant of the named snippets that the filters keep."""
    paths = []
    for given in args.paths or [root / "snippets"]:
        given = given.resolve()
        if not given.exists():
            raise SystemExit(f"error: {given}: no such snippet or folder")
        paths += snippets.snippet_paths(given) if given.is_dir() else [given]
    cases = []
    for path in paths:
        spec = snippets.read_spec(path)
        for variant in spec.variants:
            if args.device != "all" and (variant.device == "cpu") != (args.device == "cpu"):
                continue
            if args.keyword in snippet_runs.case_id(spec, variant):
                cases.append((spec, variant))
    return cases


def check_python(python: str, partition: str | None, work: Path, any_torch: bool, pin: str) -> str:
    """Run the provenance probe as one job step with the jobs' Python; returns its torch."""
    probe = work / slurm_plan.PROBE.name
    shutil.copy(slurm_plan.PROBE, probe)
    argv = ["srun", "--nodes=1", "--ntasks=1", "--time=5", *([f"--partition={partition}"] if partition else []),
            f"--chdir={work}", python, probe.name]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=600)
    if done.returncode:
        raise SystemExit(f"error: the jobs' Python ({python}) could not import torch on a node of "
                         f"{partition or 'the default partition'}:\n{done.stdout}{done.stderr}\n"
                         f"name a Python the nodes can run with --python (PYTHON=... for make)")
    torch = json.loads(done.stdout.strip().splitlines()[-1])["torch"]
    if project.release_of(torch) != pin and not any_torch:
        raise SystemExit(f"error: the jobs' Python has torch {torch}, the project pins {pin}: install "
                         f"the pin there, or pass --any-torch (records then name {torch})")
    return torch


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    root = project.root()
    if missing := slurm_jobs.missing_commands():
        raise SystemExit(f"error: Slurm's commands are not here ({', '.join(missing)}): run this on a login node")
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    work = (args.work_dir or root / "_build" / "doctest-slurm" / stamp).resolve()
    work.mkdir(parents=True, exist_ok=True)
    cases = select(root, args)
    node = slurm_jobs.node_shape(args.partition)
    print(f"doctest-slurm: {len(cases)} variant(s); partition {args.partition or '(default)'}: "
          f"{node.cpus} CPUs and {node.gpus} GPUs per node; files in {work}", flush=True)
    results: list[slurm_results.Result] = []
    jobs: dict[int, tuple[slurm_plan.JobPlan, Path, float]] = {}
    planned = []
    for spec, variant in cases:
        rel = spec.path.relative_to(root / "snippets").as_posix()
        try:
            planned.append(slurm_plan.plan(spec, variant, rel, node, partition=args.partition,
                                           ranks_per_node=args.ranks_per_node, timeout=args.snippet_timeout))
        except slurm_plan.PlanError as exc:
            results.append(slurm_results.Result(snippet_runs.case_id(spec, variant),
                                                slurm_results.NOT_SUBMITTED, str(exc)))
    if not args.dry_run and planned:
        check_python(args.python, args.partition, work, args.any_torch, project.pinned_torch(root))
    signal.signal(signal.SIGTERM, _interrupt)
    # Ctrl-C cancels the run even when this process was started with SIGINT ignored (a shell's
    # background job, say): Python only turns SIGINT into KeyboardInterrupt when it is not.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        for job in planned:
            job_dir = work / snippet_runs.case_id(job.spec, job.variant).replace("/", "__").replace("[", "__").rstrip("]")
            script = _prepare(job, job_dir, args.python)
            if args.dry_run:
                print(f"--- {script}\n{script.read_text()}")
                continue
            try:
                jobs[slurm_jobs.submit(script, job_dir)] = (job, job_dir, time.monotonic())
            except slurm_jobs.SlurmError as exc:  # more than the partition has, say
                results.append(slurm_results.Result(snippet_runs.case_id(job.spec, job.variant),
                                                    slurm_results.NOT_SUBMITTED, str(exc)))
        results += _watch(jobs, write=args.outputs)
    except KeyboardInterrupt:
        slurm_jobs.cancel(list(jobs))
        print(f"\ninterrupted: cancelled the run's {len(jobs)} job(s) (scancel); files kept in {work}",
              file=sys.stderr)
        return 130
    if args.dry_run:
        return 0
    print("\n".join(["snippet outcomes (Slurm)", *slurm_results.table(results)]))
    for r in results:
        if r.outcome in slurm_results.FAILURES:
            print(f"\n=== {r.case}: {r.outcome}\n{r.detail}")
    junit = args.junitxml or work / "junit.xml"
    slurm_results.write_junit(results, junit)
    print(f"JUnit XML: {junit}")
    return 1 if any(r.outcome in slurm_results.FAILURES for r in results) else 0


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


def _prepare(job: slurm_plan.JobPlan, job_dir: Path, python: str) -> Path:
    """The job's directory: the snippet copied alone, the probe, and the batch script."""
    if job_dir.exists():
        shutil.rmtree(job_dir)
    job_dir.mkdir(parents=True)
    shutil.copy(job.spec.path, job_dir / job.spec.path.name)
    shutil.copy(slurm_plan.PROBE, job_dir / slurm_plan.PROBE.name)
    script = job_dir / "job.sbatch"
    script.write_text(slurm_plan.batch_script(job, python))
    return script


def _watch(jobs: dict[int, tuple[slurm_plan.JobPlan, Path, float]], *, write: bool) -> list[slurm_results.Result]:
    """Wait for every job, saying how many are pending, running and done; each finished job's
    outcome as it ends."""
    results, left, said, said_at = [], set(jobs), "", 0.0
    while left:
        queued = slurm_jobs.queue_states(sorted(left))
        for job_id in sorted(left - set(queued)) + [j for j, s in queued.items() if s in slurm_jobs.DONE]:
            job, job_dir, began = jobs[job_id]
            state, _ = slurm_jobs.final_state(job_id)
            if state not in slurm_jobs.DONE:
                continue  # between the queue and the controller's record: look again
            left.discard(job_id)
            files = slurm_jobs.read_job_files(job, job_dir)
            result = slurm_results.evaluate(job, job_id, state, files, write=write,
                                            seconds=time.monotonic() - began)
            results.append(result)
            print(f"  {result.case}: {result.outcome} (job {job_id}, {state})", flush=True)
        pending = sum(1 for j, s in queued.items() if j in left and s in ("PENDING", "CONFIGURING"))
        running = sum(1 for j in left if j in queued) - pending
        line = f"{pending} pending, {running} running, {len(jobs) - len(left)} of {len(jobs)} done"
        if left and (line != said or time.monotonic() - said_at > QUIET_S):
            print(line, flush=True)
            said, said_at = line, time.monotonic()
        if left:
            time.sleep(POLL_S)
    return results


if __name__ == "__main__":
    sys.exit(main())
