"""The ``forkserver`` fixture beside PyTorch's own multi-process test class, for ``make bench``.

The same 10 two-rank gloo ``all_reduce`` tests, written once for each: through the fixture
(``run_function``: a fresh process group per test) and as a ``MultiProcContinuousTest`` (one
group shared by every test of the class). Each is a whole ``pytest`` session in a directory of
its own; the two alternate, in pairs, so that a busier moment of the machine weighs on both.
PyTorch's class needs ``expecttest`` and ``hypothesis``, which are installed for the benchmark
only, into a temporary directory that both sessions see (the same environment for both);
hypothesis's own pytest plugin, which neither session uses and which costs each session most of
a second to import, is turned off in both.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: What torch.testing._internal imports that torch itself does not install.
TEST_CLASS_NEEDS = ("expecttest", "hypothesis")

FIXTURE_TESTS = '''\
import pytest
import torch
import torch.distributed as dist


def all_reduce_sum():
    tensor = torch.ones(3) * (dist.get_rank() + 1)
    dist.all_reduce(tensor)
    print(tensor.tolist())


@pytest.mark.parametrize("i", range(10))
def test_all_reduce(forkserver, i):
    result = forkserver.run_function(all_reduce_sum, world_size=2).check()
    assert [r.stdout.strip() for r in result.ranks] == ["[3.0, 3.0, 3.0]"] * 2
'''

CONTINUOUS_TESTS = '''\
import torch
import torch.distributed as dist
from torch.testing._internal.common_distributed import MultiProcContinuousTest
from torch.testing._internal.common_utils import run_tests


class AllReduceTest(MultiProcContinuousTest):
    world_size = 2

    @classmethod
    def backend_str(cls):
        return "gloo"

    @classmethod
    def device_type(cls):
        return "cpu"


def _test(self):
    tensor = torch.ones(3) * (self.rank + 1)
    dist.all_reduce(tensor)
    self.assertEqual(tensor.tolist(), [3.0, 3.0, 3.0])


for i in range(10):
    setattr(AllReduceTest, f"test_all_reduce_{i}", _test)

if __name__ == "__main__":
    run_tests()
'''

SESSIONS = {"forkserver fixture (ranktest)": FIXTURE_TESTS,
            "MultiProcContinuousTest (torch)": CONTINUOUS_TESTS}


def _install_test_class_needs(target: Path) -> None:
    command = [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
               "--target", str(target), *TEST_CLASS_NEEDS]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"bench: could not install {', '.join(TEST_CLASS_NEEDS)} (PyTorch's test "
                         f"class needs them) with {' '.join(command)}:\n{done.stderr.strip()}")


def _session(directory: Path, env: dict[str, str]) -> float:
    """Seconds one whole ``pytest`` session in ``directory`` takes; it must pass 10 tests."""
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:hypothesispytest"],
                          cwd=directory, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0 or "10 passed" not in done.stdout:
        raise SystemExit(f"bench: the 10-test session in {directory} did not pass 10 tests:\n"
                         f"{done.stdout[-3000:]}{done.stderr[-3000:]}")
    return seconds


def compare(pairs: int) -> dict[str, list[float]]:
    """Wall seconds of each session, ``pairs`` times each, alternating."""
    with tempfile.TemporaryDirectory(prefix="bench-fixture-") as tmp:
        deps = Path(tmp, "deps")
        _install_test_class_needs(deps)
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(deps), os.environ.get("PYTHONPATH")])))
        dirs = {}
        for name, source in SESSIONS.items():
            dirs[name] = Path(tmp, f"session{len(dirs)}")
            dirs[name].mkdir()
            (dirs[name] / "test_all_reduce_10.py").write_text(source)
        times: dict[str, list[float]] = {name: [] for name in SESSIONS}
        for _ in range(pairs):
            for name in SESSIONS:
                times[name].append(_session(dirs[name], env))
        return times


def report(pairs: int) -> float:
    """Print the comparison; return the fixture's median over the test class's."""
    print(f"10 two-rank gloo all_reduce tests, a whole pytest session each, {pairs} alternating "
          f"pairs:", flush=True)
    times = compare(pairs)
    medians = {name: statistics.median(values) for name, values in times.items()}
    for name, median in medians.items():
        runs = ", ".join(f"{t:.2f}" for t in times[name])
        print(f"  {name:<36} median {median:.2f} s  ({runs})")
    ours, theirs = medians.values()
    print(f"  ratio fixture / MultiProcContinuousTest: {ours / theirs:.2f}x", flush=True)
    return ours / theirs
