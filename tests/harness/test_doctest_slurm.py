"""``make doctest-slurm`` end to end on the virtual cluster's real Slurm (2 nodes, 2 CPUs and 4
counted GPUs each): snippet variants submitted as jobs and verified against their records through
the same checks as ``make doctest`` (a distributed one spread over both nodes too), a planted
failing snippet reported as a snippet failure, a job killed by its time limit reported as Slurm's
doing, ``--outputs`` writing the record the runner writes, Ctrl-C cancelling every job, and the GPU
variants' requests (nodes, GPUs per node) as Slurm holds them. No GPU exists here: a GPU job is
checked by what it asks for, not run.

The runs work on a copy of the project's layout in a temporary folder (the real snippets and
records it needs, plus the planted ones), so nothing in the checkout is written.

Needs root and the distribution's ``slurm-wlm`` and ``munge``; skipped with the reason
elsewhere, and with ``CI`` set it fails instead.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from refsite.snippets import RECORD_FORMAT
from refsite.testing.machine import cannot_run

from ranktest import cluster
from ranktest.cluster import slurm
from ranktest.cluster import Cluster
from ranktest.cluster.slurm import Slurm
from tests.support.paths import REPO

if reason := cluster.unavailable() or slurm.unavailable():
    cannot_run(f"Slurm on a virtual cluster: {reason}", module=True)

pytestmark = pytest.mark.slow

#: Real snippets the runs use: a one-process one, a 2-rank gloo one (one node, then spread).
ONE_PROCESS = "tensors/arange.py"
TWO_RANKS = "distributed/all_reduce.py"
FAILS = '''"""Planted: prints, then fails.

Run: python fails.py
"""
print("before the failure")
raise SystemExit("planted failure")
'''
SLEEPS = '''"""Planted: outlives its time limit.

Run: python sleeps.py
Timeout: 1
"""
import time

print("sleeping", flush=True)
time.sleep(600)
'''


@pytest.fixture(scope="module")
def slurm_cluster() -> Iterator[Slurm]:
    with Cluster(hosts=2) as made, Slurm(made) as daemons:
        yield daemons


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project layout with the snippets the runs use, their records, and the planted ones."""
    root = tmp_path / "project"
    root.mkdir()
    for name in ("Makefile", "conf.py"):
        shutil.copy(REPO / name, root / name)
    for rel in (ONE_PROCESS, TWO_RANKS):
        source = REPO / "snippets" / rel
        (root / "snippets" / rel).parent.mkdir(parents=True, exist_ok=True)
        for path in source.parent.glob(f"{source.stem}.*"):
            if path.suffix in (".py", ".json"):
                shutil.copy(path, (root / "snippets" / rel).parent / path.name)
    (root / "snippets" / "planted").mkdir()
    (root / "snippets" / "planted" / "fails.py").write_text(FAILS)
    (root / "snippets" / "planted" / "sleeps.py").write_text(SLEEPS)
    return root


def doctest_slurm(slurm_cluster: Slurm, project: Path, *args: str, timeout: float = 300):
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}:{os.environ['PATH']}")
    return slurm_cluster.cluster.hosts[0].run(
        [sys.executable, "-m", "refsite.commands.slurm.doctest", "--work-dir", str(project / "work"), *args],
        cwd=project, env=env, timeout=timeout)


def outcomes(junit: Path) -> dict[str, str]:
    import xml.etree.ElementTree as ET
    cases = ET.parse(junit).getroot().iter("testcase")
    return {f"{c.get('classname').removeprefix('snippets.')}/{c.get('name')}":
            c.find("properties/property[@name='outcome']").get("value") for c in cases}


def test_variants_run_as_jobs_and_failures_are_told_apart(slurm_cluster: Slurm, project: Path) -> None:
    began = time.monotonic()
    done = doctest_slurm(slurm_cluster, project, "--device", "cpu", "--ranks-per-node", "1")
    wall = time.monotonic() - began
    assert done.returncode == 1, done.stdout  # the planted failures fail the run
    got = outcomes(project / "work" / "junit.xml")
    assert got == {
        "tensors/arange[cpu]": "verified against its own record",
        "distributed/all_reduce[gloo-cpu-2]": "verified against its own record",
        "planted/fails[cpu]": "snippet failed",
        "planted/sleeps[cpu]": "ended by Slurm",
    }, done.stdout
    assert "Slurm ended the job: TIMEOUT (its time limit, 1 min" in done.stdout, done.stdout
    assert "planted failure" in done.stdout and "before the failure" in done.stdout, done.stdout
    # spread over both nodes: one rank on each, as its batch script asked
    script = (project / "work" / "distributed__all_reduce__gloo-cpu-2" / "job.sbatch").read_text()
    assert "#SBATCH --nodes=2" in script and "--node-rank=$SLURM_NODEID" in script, script
    assert {p.name for p in (project / "work" / "distributed__all_reduce__gloo-cpu-2" / "logs").iterdir()} == {
        "node0", "node1"}
    assert "pending" in done.stdout and "of 4 done" in done.stdout, done.stdout  # progress lines
    print(f"4 variants as Slurm jobs in {wall:.0f} s")
    assert _queue(slurm_cluster) == [], "a job of the run is still queued"


def test_outputs_writes_the_record_the_runner_writes(slurm_cluster: Slurm, project: Path) -> None:
    record = project / "snippets" / "distributed" / "all_reduce.gloo-cpu-2.out.json"
    committed = json.loads(record.read_text())
    record.unlink()
    done = doctest_slurm(slurm_cluster, project, "--outputs", "--device", "cpu", "-k", "all_reduce")
    assert done.returncode == 0, done.stdout
    written = json.loads(record.read_text())
    # the same fields and outputs; the format is the writer's current one (format 1 reads as 2)
    assert written.pop("format") == RECORD_FORMAT
    committed.pop("format")
    assert written == committed, done.stdout


def test_a_planted_change_in_the_output_fails_naming_the_rank(slurm_cluster: Slurm, project: Path) -> None:
    record = project / "snippets" / "distributed" / "all_reduce.gloo-cpu-2.out.json"
    data = json.loads(record.read_text())
    data["ranks"][1]["stdout"][0] += " (changed)"
    record.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    done = doctest_slurm(slurm_cluster, project, "--device", "cpu", "-k", "all_reduce")
    assert done.returncode == 1 and "output changed" in done.stdout and "rank 1" in done.stdout, done.stdout


def test_ctrl_c_cancels_every_job(slurm_cluster: Slurm, project: Path) -> None:
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}:{os.environ['PATH']}")
    proc = slurm_cluster.cluster.hosts[0].popen(
        [sys.executable, "-m", "refsite.commands.slurm.doctest", "--work-dir", str(project / "work"),
         "-k", "sleeps", str(project / "snippets" / "planted")], cwd=project, env=env)
    lines = []
    for line in proc.stdout:  # wait until the job runs
        lines.append(line)
        if "1 running" in line:
            break
    assert _queue(slurm_cluster), "".join(lines)
    proc.send_signal(signal.SIGINT)
    out = proc.stdout.read()
    assert proc.wait(timeout=60) == 130, "".join(lines) + out
    assert "cancelled the run's 1 job(s)" in out, out
    deadline = time.monotonic() + 30
    while _queue(slurm_cluster) and time.monotonic() < deadline:
        time.sleep(0.5)
    assert _queue(slurm_cluster) == []


@pytest.mark.parametrize(("layout", "nodes", "per_node"), [((), "1", "gres:gpu:2"),
                                                       (("--ranks-per-node", "1"), "2", "gres:gpu:1")])
def test_gpu_variants_ask_for_their_nodes_and_gpus(slurm_cluster: Slurm, project: Path, layout: tuple[str, ...],
                                                   nodes: str, per_node: str) -> None:
    # Held, so that nothing runs: what Slurm holds is what the job asks for (one GPU per rank,
    # on one node or, at most one rank per node, on two).
    done = doctest_slurm(slurm_cluster, project, "--dry-run", "--device", "cuda", "--partition",
                         slurm.GPU_PARTITION, "-k", "nccl-cuda-2", *layout)
    assert done.returncode == 0, done.stdout
    job_dir = project / "work" / "distributed__all_reduce__nccl-cuda-2"
    submitted = slurm_cluster.cluster.hosts[0].run(
        ["sbatch", "--parsable", "--hold", f"--chdir={job_dir}", str(job_dir / "job.sbatch")], timeout=30)
    job_id = int(submitted.stdout.strip().split(";")[0])
    fields = slurm_cluster.job(job_id)
    slurm_cluster.cluster.hosts[0].run(["scancel", str(job_id)], timeout=10)
    assert (fields["Partition"], fields["NumNodes"].split("-")[0], fields["TresPerNode"]) == (
        slurm.GPU_PARTITION, nodes, per_node), fields
    assert fields["TimeLimit"] == "00:03:00", fields


def _queue(slurm_cluster: Slurm) -> list[str]:
    out = slurm_cluster.cluster.hosts[0].run(["squeue", "-h", "-o", "%i %T"], timeout=10).stdout
    return [line for line in out.splitlines() if line.strip()]
