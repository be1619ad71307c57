"""``make bench``: what the warm forkserver saves, measured in one run on this machine.

Prints, in one run: the median wall time of 2-rank runs through the project's forkserver (a
script that does nothing, a process group and nothing else, and ``distributed/all_reduce.py``,
each of the last two with the teardown check off and on, and the check's cost as their ratio);
the same snippet started by a fresh ``torchrun`` and the ratio of the two; the ``forkserver``
fixture's 10-test session beside PyTorch's ``MultiProcContinuousTest`` (``bench_fixture``); and
the wall time of the whole snippet suite (``pytest snippets``).
"""

from __future__ import annotations

import argparse
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from refsite import snippets
from ranktest.torchrun import torchrun_argv
from refsite.testing import bench_fixture
from refsite.testing.snippet_runs import project_server
from refsite import project

ROOT = project.root()
SNIPPET = ROOT / "snippets" / "distributed" / "all_reduce.py"


def _timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def _torchrun(spec: snippets.Spec) -> None:
    subprocess.run(torchrun_argv(shlex.split(spec.run)[1:]), cwd=spec.path.parent, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


#: A 2-rank script with a process group and nothing else: the teardown check's own cost.
GROUP_ONLY = ("import torch.distributed as dist\n"
              "dist.init_process_group('gloo')\n"
              "dist.barrier()\n"
              "dist.destroy_process_group()\n")


def _median_run(server, script: Path, runs: int, check: bool) -> float:
    return statistics.median(
        _timed(lambda: server.run(script, 2, distributed=True, check_teardown=check).check())
        for _ in range(runs))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30, help="forkserver runs per measurement")
    parser.add_argument("--torchrun-runs", type=int, default=5, help="fresh torchrun launches")
    parser.add_argument("--pairs", type=int, default=3,
                        help="alternating pairs of the 10-test fixture / MultiProcContinuousTest sessions")
    parser.add_argument("--no-suite", action="store_true", help="skip the snippet suite's wall time")
    args = parser.parse_args()
    spec = snippets.read_spec(SNIPPET)
    rel = SNIPPET.relative_to(ROOT)

    server = project_server()
    start = _timed(server.start)
    with server, tempfile.TemporaryDirectory() as tmp:
        noop, group = Path(tmp, "noop.py"), Path(tmp, "group_only.py")
        noop.write_text("pass\n")
        group.write_text(GROUP_ONLY)
        print(f"forkserver start (imports torch once): {start:.2f} s", flush=True)
        print(f"2 ranks through the forkserver, median of {args.runs} runs:", flush=True)
        rows = [("no-op script (pure overhead)", noop, None),
                ("init + barrier + destroy", group, True), (f"{rel}", SNIPPET, True)]
        harness = 0.0
        for name, script, checked in rows:
            if checked is None:
                print(f"  {name:<52} {_median_run(server, script, args.runs, False):.3f} s", flush=True)
                continue
            off = _median_run(server, script, args.runs, False)
            harness = on = _median_run(server, script, args.runs, True)
            print(f"  {name + ', teardown check off':<52} {off:.3f} s", flush=True)
            print(f"  {name + ', teardown check on':<52} {on:.3f} s  (check: {on / off:.2f}x)", flush=True)
    fresh = statistics.median(_timed(lambda: _torchrun(spec)) for _ in range(args.torchrun_runs))
    print(f"fresh `{spec.run}`, {args.torchrun_runs} runs: median {fresh:.3f} s")
    print(f"{rel} through the forkserver (check on) / fresh torchrun: {harness / fresh:.3f}x "
          f"(a run costs 1/{fresh / harness:.0f} of a launch)", flush=True)
    bench_fixture.report(args.pairs)
    if args.no_suite:
        return 0
    suite = subprocess.run([sys.executable, "-m", "pytest", "snippets", "-q", "-p", "no:cacheprovider"],
                           cwd=ROOT, capture_output=True, text=True)
    summary = suite.stdout.strip().splitlines()[-1] if suite.stdout.strip() else "(no output)"
    seconds = summary.rsplit(" in ", 1)[-1].strip("= ") if " in " in summary else "?"
    print(f"snippet suite (pytest snippets, one process): {seconds} wall; {summary.strip('= ')}")
    return suite.returncode


if __name__ == "__main__":
    sys.exit(main())
