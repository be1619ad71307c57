"""``make bench``: what the warm forkserver saves, measured in one run on this machine.

Prints the median wall time of a 2-rank snippet through the project's forkserver, of the same
file started by a fresh ``torchrun``, their ratio, the forkserver's own overhead (a 2-rank
script that does nothing), and the wall time of the whole snippet suite (``pytest snippets``).
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30, help="forkserver runs per measurement")
    parser.add_argument("--torchrun-runs", type=int, default=5, help="fresh torchrun launches")
    args = parser.parse_args()
    spec = snippets.read_spec(SNIPPET)
    rel = SNIPPET.relative_to(ROOT)

    server = project_server()
    start = _timed(server.start)
    with server, tempfile.TemporaryDirectory() as tmp:
        noop = Path(tmp, "noop.py")
        noop.write_text("pass\n")
        print(f"forkserver start (imports torch once): {start:.2f} s", flush=True)
        overhead = [_timed(lambda: server.run(noop, 2, distributed=True, check_teardown=False).check())
                    for _ in range(args.runs)]
        harness = [_timed(lambda: server.run(SNIPPET, 2).check()) for _ in range(args.runs)]
    print(f"forkserver, {args.runs} runs each:", flush=True)
    print(f"  {'2-rank no-op script (pure overhead)':<48} median {statistics.median(overhead):.3f} s")
    print(f"  {str(rel) + ' on 2 ranks':<48} median {statistics.median(harness):.3f} s", flush=True)
    fresh = [_timed(lambda: _torchrun(spec)) for _ in range(args.torchrun_runs)]
    print(f"fresh `{spec.run}`, {args.torchrun_runs} runs: median {statistics.median(fresh):.3f} s")
    ratio = statistics.median(fresh) / statistics.median(harness)
    print(f"ratio torchrun / forkserver: {ratio:.1f}x (a run costs 1/{ratio:.0f} of a launch)", flush=True)
    suite = subprocess.run([sys.executable, "-m", "pytest", "snippets", "-q", "-p", "no:cacheprovider"],
                           cwd=ROOT, capture_output=True, text=True)
    summary = suite.stdout.strip().splitlines()[-1] if suite.stdout.strip() else "(no output)"
    seconds = summary.rsplit(" in ", 1)[-1].strip("= ") if " in " in summary else "?"
    print(f"snippet suite (pytest snippets, one process): {seconds} wall; {summary.strip('= ')}")
    return suite.returncode


if __name__ == "__main__":
    sys.exit(main())
