"""Run every CPU variant on the torch of this environment and write its compat measurement file.

Started by ``python -m refsite.commands.compat.cli`` (``make compat``) inside one release's own environment, with the
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
import sys
import time
from pathlib import Path

from refsite.measurements import compat_matrix, compat_results, machine_paths
from refsite.testing import snippet_runs
from refsite.commands.compat import repeats
from refsite.commands.compat.errors import first_error
from refsite import snippets
from ranktest import Forkserver, HarnessError
from refsite import project

ROOT = project.root()
SNIPPETS = ROOT / "snippets"
#: Variants run at once by default: one per core (multi-rank variants mostly wait on each other).
JOBS = os.cpu_count() or 1
#: With more than one job, snippets that start processes themselves run in lanes of their own
#: beside the others, this many at a time and longest declared timeout first: on older releases
#: most of their time is spent waiting on their launchers (elastic_restart's workers wait out two
#: 60 s store timeouts on 2.0-2.4), and each picks free ports.
APART_LANES = 3
#: Beside other runs a variant runs this long at most (its declared timeout when shorter). In the
#: full pass of 2026-11-26 the slowest run that ended beside others took 12.2 s (compile_module on
#: 2.10.0), while on 2.2-2.7 one to six two-rank examples a release hung beside others until their
#: 60 s timeouts (alone most ran in 0.2 s; torch's teardown hangs there now and then, alone too)
#: and three pipeline examples until their 120-180 s. A run stopped here is never stored: it runs
#: again alone with its declared timeout, unless the file's result for this code and record is
#: that timeout, which it keeps.
BESIDE_TIMEOUT_S = 30.0
#: Releases whose ``torchrun --standalone`` rendezvous listens on the fixed port 29400 (torch 2.0;
#: from 2.1 on a free port): there two such launches at once meet in one store, so they run one at a time.
FIXED_STANDALONE_PORT = ("2.0.",)
#: How many lines of a rank's stderr a ``differs`` result keeps.
STDERR_LINES = 5


def judge(server: Forkserver, spec: snippets.Spec, variant: snippets.Variant,
          record: snippets.Record, measured: dict, at_most: float | None = None) -> dict:
    """Run the variant once (for ``at_most`` seconds when that is shorter than its timeout); its
    stored result: ``same``, ``differs`` with the diff, or ``fails``."""
    try:  # as a reader runs it: a deprecation warning is not an error
        result = snippet_runs.run_variant(server, spec, variant, strict_warnings=False, at_most=at_most)
    except HarnessError as exc:  # the server died with it: start another for the next variant
        server.start()
        return {**measured, "result": compat_results.FAILS, "error_type": "HarnessError", "error": str(exc)}
    if not result.ok:
        error_type, error = first_error(result)
        stopped = {"stopped_after_s": result.timeout} if result.timed_out else {}
        return {**measured, "result": compat_results.FAILS, "error_type": error_type, "error": error, **stopped}
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


def _judged(server: Forkserver, case: Case, at_most: float | None = None) -> tuple[dict, float]:
    start = time.monotonic()
    found = machine_paths.normalise_result(
        judge(server, case.spec, case.variant, case.record, case.measured, at_most), ROOT)
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


def _repeated(server: Forkserver, case: Case, first: dict, total: int, label: str) -> dict:
    """``first`` and :data:`compat_results.REPEATS` - 1 more runs alone, as one stored result
    (:func:`compat_results.repeated`); a line per run."""
    runs = [first]
    for number in range(2, compat_results.REPEATS + 1):
        found, seconds = _judged(server, case)
        runs.append(found)
        _say(case, label, total, found, seconds, f" (run {number} of {compat_results.REPEATS})")
    return compat_results.repeated(runs)


def _kept_timeout(case: Case, earlier: dict[str, dict]) -> dict | None:
    """The file's result for this code and record when it is a timeout at the declared timeout."""
    old = _current(earlier.get(case.key), case)
    declared = snippet_runs.timeout_of(case.spec, None, snippet_runs.HARNESS_TIMEOUT_S)
    return old if old and old.get("stopped_after_s") == declared else None


def _start_servers(stack: contextlib.ExitStack, count: int) -> queue.Queue[Forkserver]:
    """``count`` forkservers, importing torch at the same time."""
    servers: queue.Queue[Forkserver] = queue.Queue()
    for _ in range(count):
        server = Forkserver(preload=snippet_runs.PRELOAD, check_teardown=False)
        stack.callback(server.close)
        server.start(wait=False)
        servers.put(server)
    return servers


def run_cases(todo: list[Case], jobs: int, label: str, total: int,
              earlier: dict[str, dict] | None = None, apart_lanes: int = APART_LANES,
              repeat: str = "") -> dict[str, dict]:
    """Each case's stored result, a line per result as it ends. ``jobs`` run at once, one
    forkserver each, for :data:`BESIDE_TIMEOUT_S` at most; snippets that start processes
    themselves (an elastic agent, ``mp.spawn``: their own rendezvous and timeouts) run beside
    them in ``apart_lanes`` lanes of their own, with their declared timeouts. With more than one
    job, a result other than ``same`` (a timeout too) is run once more alone, and that run is the
    one stored, unless the file's earlier result for this code and record (``earlier``) was of the
    same kind: a variant that only fails or hangs while others load the machine must not be
    recorded as failing on that release. A run stopped at :data:`BESIDE_TIMEOUT_S` always runs
    again alone, unless the earlier result is a timeout at the declared timeout: that one is kept.
    A variant whose run alone does not settle it (:func:`repeats.reason`; ``repeat``: patterns of
    keys to repeat anyway) runs :data:`compat_results.REPEATS` times alone and is stored as such."""
    earlier = earlier or {}
    results: dict[str, dict] = {}
    together = [c for c in todo if jobs <= 1 or not c.spec.starts_processes]
    apart = sorted([c for c in todo if c not in together], key=lambda c: -(c.spec.timeout or 0))
    beside = BESIDE_TIMEOUT_S if jobs > 1 else None
    groups = [(together, jobs, beside, ""),
              (apart, min(jobs, apart_lanes), None, " (apart from the others: it starts processes itself)")]
    stopped: set[str] = set()  # the runs stopped at BESIDE_TIMEOUT_S, to run again alone
    with contextlib.ExitStack() as stack:
        servers = _start_servers(stack, max(1, sum(min(lanes, len(group)) for group, lanes, _, _ in groups)))

        def one(case: Case, at_most: float | None) -> tuple[dict, float]:
            server = servers.get()
            try:
                return _judged(server, case, at_most)
            finally:
                servers.put(server)

        with contextlib.ExitStack() as pools:
            futures: dict[concurrent.futures.Future, tuple[Case, float | None, str]] = {}
            for group, lanes, at_most, note in groups:
                pool = pools.enter_context(concurrent.futures.ThreadPoolExecutor(max(1, lanes)))
                futures.update({pool.submit(one, case, at_most): (case, at_most, note) for case in group})
            for future in concurrent.futures.as_completed(futures):
                case, at_most, note = futures[future]
                found, seconds = future.result()
                if at_most and found.get("stopped_after_s") == at_most:
                    if kept := _kept_timeout(case, earlier):
                        found, note = kept, f"{note} (stopped beside others; the file's timeout of {kept['date']} is kept)"
                    else:
                        stopped.add(case.key)
                results[case.key] = found
                _say(case, label, total, found, seconds, note)
        server = servers.get()
        again = [c for c in todo if _asked_again(c.key, repeat) or "repeated" in (_current(earlier.get(c.key), c) or {})]
        if jobs > 1:
            again += [c for c in todo if c not in again and (c.key in stopped or (
                results[c.key]["result"] != compat_results.SAME
                and _kind(results[c.key]) != _kind(_current(earlier.get(c.key), c))))]
        for case in sorted(again, key=lambda c: c.number):
            found, seconds = _judged(server, case)
            was = results[case.key]
            said = f"stopped after {BESIDE_TIMEOUT_S:g} s" if case.key in stopped else was["result"]
            _say(case, label, total, found, seconds, f" (alone; was {said} beside other runs)"
                 if _kind(found) != _kind(was) or case.key in stopped else " (alone again: confirmed)")
            beside = None if case.key in stopped or jobs <= 1 else was
            if reason := repeats.reason(found, beside, _current(earlier.get(case.key), case),
                                        _asked_again(case.key, repeat)):
                print(f"  {case.key}: run {compat_results.REPEATS} times alone ({reason})", flush=True)
                found = _repeated(server, case, found, total, label)
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
    parser.add_argument("--repeat", default="",
                        help="comma-separated patterns (fnmatch) of variant keys to run "
                             f"{compat_results.REPEATS} times alone and store as 'k of N' (with --again to rerun "
                             "a current result); make compat repeats by itself a variant whose kind of result "
                             "changed from one run to the next")
    parser.add_argument("--jobs", type=int, default=JOBS,
                        help=f"variants run at once, each on its own forkserver (default {JOBS}); a result "
                             "other than 'same' is confirmed by a run alone")
    args = parser.parse_args()

    import torch  # the measured release; this tool's only torch import, in that release's environment

    matrix = compat_matrix.load(args.out.parent, SNIPPETS)  # every CPU variant, its record and digests
    cases = matrix.variants
    earlier = compat_results.previous_results(args.out)  # with --all too: what a confirmation may skip
    previous = {} if args.all else earlier
    started = time.monotonic()
    results: dict[str, dict] = {}
    todo: list[Case] = []
    order: list[str] = []  # the file lists the variants in this order, however the runs end
    for number, found in enumerate(cases, 1):
        key = found.key
        order.append(key)
        if found.record is None:  # a new snippet not recorded yet: nothing to compare with
            print(f"[{number:3d}/{len(cases)}] torch {args.release} {key}: not measured: no readable record "
                  f"({found.spec.record_path(found.variant).name}); run make outputs", flush=True)
            continue
        case = Case(number, key, found.spec, found.variant, found.record,
                    {"code_sha256": found.code_sha256, "record_sha256": found.record_sha256})
        old = _current(previous.get(key), case)
        if old and "stopped_after_s" not in old and not _asked_again(key, args.again):
            results[key] = old  # still current: measured on this code and record
            continue
        todo.append(case)
    kept = len(results)
    lanes = 1 if torch.__version__.startswith(FIXED_STANDALONE_PORT) else APART_LANES
    results.update(run_cases(todo, args.jobs, f"torch {args.release}", len(cases), earlier, lanes, args.repeat))
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
