"""Run every CPU variant on the torch of this environment and write its compat measurement file.

Started by ``python -m refsite.testing.compat`` (``make compat``) inside one release's own environment, with the
project's ``src`` and ``tooling`` on ``PYTHONPATH``. A variant whose result in the existing
file is still current (same code, same record, and for a ``differs`` the same comparison rules;
each result carries its date) is kept, unless
``--all`` or it timed out (a busy machine can cause that: it runs again); every other variant runs once through the
project's runner (a warm forkserver, as ``make test`` runs it) and is compared with its record
as the test suite compares (see :mod:`compat_results` for the outcomes). Progress goes to stdout,
one line per variant.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import dataclasses
import datetime
import fnmatch
import os
import platform
import queue
import re
import sys
import time
from pathlib import Path

from refsite.snippets import compat_results, machine_paths
from refsite.testing import snippet_runs
from refsite import snippets
from ranktest import Forkserver, HarnessError, RunResult
from refsite import project

ROOT = project.root()
SNIPPETS = ROOT / "snippets"
#: The line that names an exception or a warning: ``ValueError: ...``, ``file.py:3: FutureWarning: ...``.
_EXCEPTION = re.compile(r"\b([A-Za-z_][\w.]*(?:Error|Exception|Warning|Exit|Interrupt|Failure)): ?(.*)")
_TRACEBACK = "Traceback (most recent call last):"
#: The line that ends a traceback: the exception's (dotted) name, then its message if any.
_RAISED = re.compile(r"([A-Za-z_][\w.]*)(?:: ?(.*))?")
#: A C++ exception that ended the process: its type, and the first line of its ``what()``.
_TERMINATE = re.compile(r"terminate called after throwing an instance of '([^']+)'")
_WHAT = re.compile(r"^\s*what\(\):\s*(.*)")
#: Variants run at once by default: one per core (multi-rank variants mostly wait on each other).
JOBS = os.cpu_count() or 1
#: With more than one job, snippets that start processes themselves run after the others, this
#: many at a time and longest declared timeout first: on older releases most of their time is
#: spent waiting on launchers (elastic_restart's workers wait out two 60 s store timeouts on
#: 2.0-2.4; before their snippets were mended, hangs of 150-200 s), and each picks free ports.
APART_LANES = 3
#: Releases whose ``torchrun --standalone`` rendezvous listens on the fixed port 29400 (torch 2.0;
#: from 2.1 on a free port): there two such launches at once meet in one store, so they run one at a time.
FIXED_STANDALONE_PORT = ("2.0.",)
#: How many lines of a rank's stderr a ``differs`` result keeps.
STDERR_LINES = 5


def first_error(result: RunResult) -> tuple[str, str]:
    """The exception type and the first line of its message of a failed run: the last
    exception line of the first failed rank's stderr (a traceback ends with it); else the line
    that ends a traceback (an exception whose name says nothing of errors); else how the first
    failed rank ended, with a C++ exception's ``what()`` (an abort) or its first line of stderr."""
    if result.timed_out:
        return "Timeout", f"still running after {result.timeout:g} s"
    order = sorted(result.ranks, key=lambda r: (r.rank != result.first_failure, r.returncode == 0, r.rank))
    for rank in order:
        for line in reversed(rank.stderr.splitlines()):
            if match := _EXCEPTION.search(line):
                return match.group(1).rsplit(".", 1)[-1], match.group(2).strip()
    for rank in order:
        if raised := _ends_traceback(rank.stderr.splitlines()):
            return raised
    first = order[0]
    lines = first.stderr.splitlines()
    said = next((line.strip() for line in lines if line.strip()), "")
    thrown = next((match.group(1) for line in lines if (match := _TERMINATE.search(line))), None)
    what = next((match.group(1).strip() for line in lines if (match := _WHAT.match(line))), "")
    return first.describe(), f"{thrown}: {what}" if thrown and what else said


def _ends_traceback(lines: list[str]) -> tuple[str, str] | None:
    """(type, message) of the line that ends the last traceback of ``lines``, whatever the
    exception's name (``subprocess.TimeoutExpired: Command ...``)."""
    headers = [number for number, line in enumerate(lines) if line.strip() == _TRACEBACK]
    for line in lines[headers[-1] + 1:] if headers else ():
        if line.strip() and not line[0].isspace():
            match = _RAISED.fullmatch(line.strip())
            return (match.group(1).rsplit(".", 1)[-1], (match.group(2) or "").strip()) if match else None
    return None


def measured_on(spec: snippets.Spec, record: snippets.Record) -> dict:
    """What a result is measured against: the snippet's code and the variant's record."""
    return {"code_sha256": compat_results.code_digest(spec.path), "record_sha256": compat_results.record_digest(record)}


def judge(server: Forkserver, spec: snippets.Spec, variant: snippets.Variant,
          record: snippets.Record, measured: dict) -> dict:
    """Run the variant once; its stored result: ``same``, ``differs`` with the diff, or ``fails``."""
    try:
        result = snippet_runs.run_variant(server, spec, variant, strict_warnings=False)  # as a reader runs it
    except HarnessError as exc:  # the server died with it: start another for the next variant
        server.start()
        return {**measured, "result": compat_results.FAILS, "error_type": "HarnessError", "error": str(exc)}
    if not result.ok:
        error_type, error = first_error(result)
        return {**measured, "result": compat_results.FAILS, "error_type": error_type, "error": error}
    diff = snippets.output_diff(record, tuple(r.stdout for r in result.ranks), spec.record_path(variant).name)
    for rank in result.ranks:
        if rank.stderr.strip():
            diff += [f"rank {rank.rank} stderr (the record has none):",
                     *[f"  {line}" for line in rank.stderr.strip().splitlines()[:STDERR_LINES]]]
    if diff:
        return {**measured, "result": compat_results.DIFFERS, "diff": diff}
    return {**measured, "result": compat_results.SAME}


@dataclasses.dataclass(frozen=True)
class Case:
    """One variant to run: its number in the list, its key in the file, and what it is judged on."""

    number: int
    key: str
    spec: snippets.Spec
    variant: snippets.Variant
    record: snippets.Record
    measured: dict


def _current(found: dict | None, case: Case) -> dict | None:
    """``found`` if it was measured on the case's code and record."""
    digests = case.measured["code_sha256"], case.measured["record_sha256"]
    return found if found and compat_results.is_current(found, *digests) else None


def _judged(server: Forkserver, case: Case) -> tuple[dict, float]:
    start = time.monotonic()
    found = machine_paths.normalise_result(judge(server, case.spec, case.variant, case.record, case.measured), ROOT)
    return ({**found, "date": datetime.date.today().isoformat(), "compare_rules": snippets.COMPARISON_RULES},
            time.monotonic() - start)


def _say(case: Case, label: str, total: int, found: dict, seconds: float, note: str = "") -> None:
    detail = f": {found['error_type']}: {found['error'][:100]}" if "error_type" in found else ""
    print(f"[{case.number:3d}/{total}] {label} {case.key}: {found['result']}{detail} ({seconds:.1f} s){note}",
          flush=True)


def _asked_again(key: str, patterns: str) -> bool:
    """Whether ``key`` matches one of the comma-separated ``patterns`` (``--again``)."""
    return any(fnmatch.fnmatchcase(key, pattern.strip()) for pattern in patterns.split(",") if pattern.strip())


def _kind(found: dict | None) -> tuple[str, str] | None:
    return (found["result"], found.get("error_type", "")) if found else None


def run_cases(todo: list[Case], jobs: int, label: str, total: int,
              earlier: dict[str, dict] | None = None, apart_lanes: int = APART_LANES) -> dict[str, dict]:
    """Each case's stored result, a line per result as it ends. ``jobs`` run at once, one
    forkserver each; snippets that start processes themselves (an elastic agent, ``mp.spawn``:
    their own rendezvous and timeouts) run after them, ``apart_lanes`` at a time. With more
    than one job, a result other than ``same`` (a timeout too) is run once more alone, and that
    run is the one stored, unless the file's earlier result for this code and record
    (``earlier``) was of the same kind: a variant that only fails or hangs while others load the
    machine must not be recorded as failing on that release."""
    earlier = earlier or {}
    results: dict[str, dict] = {}
    together = [c for c in todo if jobs <= 1 or not c.spec.starts_processes]
    apart = [c for c in todo if c not in together]
    with contextlib.ExitStack() as stack:
        servers: queue.Queue[Forkserver] = queue.Queue()
        for _ in range(max(1, min(jobs, len(todo)))):
            servers.put(stack.enter_context(Forkserver(preload=snippet_runs.PRELOAD, check_teardown=False)))

        def one(case: Case) -> tuple[dict, float]:
            server = servers.get()
            try:
                return _judged(server, case)
            finally:
                servers.put(server)

        def run_group(group: list[Case], lanes: int, note: str = "") -> None:
            with concurrent.futures.ThreadPoolExecutor(max(1, min(jobs, lanes))) as pool:
                futures = {pool.submit(one, case): case for case in group}
                for future in concurrent.futures.as_completed(futures):
                    case = futures[future]
                    results[case.key], seconds = future.result()
                    _say(case, label, total, results[case.key], seconds, note)

        run_group(together, jobs)
        run_group(sorted(apart, key=lambda c: -(c.spec.timeout or 0)), apart_lanes,
                  " (apart from the others: it starts processes itself)")
        server = servers.get()
        if jobs > 1:
            again = [c for c in todo if results[c.key]["result"] != compat_results.SAME
                     and _kind(results[c.key]) != _kind(_current(earlier.get(c.key), c))]
            for case in sorted(again, key=lambda c: c.number):
                found, seconds = _judged(server, case)
                was = results[case.key]
                _say(case, label, total, found, seconds, f" (alone; was {was['result']} beside other runs)"
                     if _kind(found) != _kind(was) else " (alone again: confirmed)")
                results[case.key] = found
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--release", required=True, help="the torch release asked for, e.g. 2.4.1")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--install-seconds", type=float, required=True)
    parser.add_argument("--command", required=True, help="the command that made this file")
    parser.add_argument("--machine", required=True)
    parser.add_argument("--requirements", default="",
                        help="comma-separated pins installed besides torch (recorded in the file)")
    parser.add_argument("--all", action="store_true",
                        help="run every variant (default: keep the results still current in --out)")
    parser.add_argument("--again", default="",
                        help="comma-separated patterns (fnmatch) of variant keys to run even when their result is "
                             "current, e.g. 'distributed/elastic_restart.py*' after a change of how results are judged")
    parser.add_argument("--jobs", type=int, default=JOBS,
                        help=f"variants run at once, each on its own forkserver (default {JOBS}); a result "
                             "other than 'same' is confirmed by a run alone")
    args = parser.parse_args()

    import torch  # the measured release; this tool's only torch import, in that release's environment

    cases = snippet_runs.cpu_variants(SNIPPETS)
    earlier = compat_results.previous_results(args.out)  # with --all too: what a confirmation may skip
    previous = {} if args.all else earlier
    started = time.monotonic()
    results: dict[str, dict] = {}
    todo: list[Case] = []
    order: list[str] = []  # the file lists the variants in this order, however the runs end
    for number, (spec, variant) in enumerate(cases, 1):
        rel = spec.path.relative_to(SNIPPETS).as_posix()
        key = compat_results.variant_key(rel, variant.id)
        order.append(key)
        try:
            record = snippets.read_record(spec.record_path(variant))
            measured = measured_on(spec, record)
        except snippets.SpecError as exc:  # a new snippet not recorded yet: nothing to compare with
            print(f"[{number:3d}/{len(cases)}] torch {args.release} {key}: not measured: {exc}", flush=True)
            continue
        case = Case(number, key, spec, variant, record, measured)
        old = _current(previous.get(key), case)
        if old and old.get("error_type") != "Timeout" and not _asked_again(key, args.again):
            results[key] = old  # still current: measured on this code and record
            continue
        todo.append(case)
    kept = len(results)
    lanes = 1 if torch.__version__.startswith(FIXED_STANDALONE_PORT) else APART_LANES
    results.update(run_cases(todo, args.jobs, f"torch {args.release}", len(cases), earlier, lanes))
    results = {key: results[key] for key in order if key in results}
    counts = {outcome: sum(r["result"] == outcome for r in results.values())
              for outcome in (compat_results.SAME, compat_results.DIFFERS, compat_results.FAILS)}
    data = compat_results.measurement(
        args.release, torch_build=torch.__version__, python=platform.python_version(),
        date=datetime.date.today().isoformat(), machine=args.machine, command=args.command,
        install={"ok": True, "seconds": round(args.install_seconds, 1),
                 "requirements": [pin for pin in args.requirements.split(",") if pin]}, variants=results,
        timing={"run_seconds": round(time.monotonic() - started, 1),
                "kept_from_earlier_runs": kept, "counts": counts})
    compat_results.write_run(args.out, data)
    print(f"torch {args.release}: {counts[compat_results.SAME]} same, {counts[compat_results.DIFFERS]} differ, "
          f"{counts[compat_results.FAILS]} fail ({len(cases) - kept} run in {data['run_seconds']} s, {kept} "
          f"still current from earlier runs) -> {args.out}", flush=True)
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
