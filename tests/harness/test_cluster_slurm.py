"""A real 2-node Slurm (``ranktest.cluster.slurm``) on the virtual cluster: the batch scripts of the
clusters page (``docs/en/debugging/clusters.md``) run under ``sbatch``: ``srun`` starts one
``torchrun`` per node with the head node from ``scontrol show hostnames`` (c10d rendezvous, and
the static one with ``--node-rank=$SLURM_NODEID`` expanded on each node), and ``srun`` without
``torchrun`` starts one task per rank, which maps ``SLURM_PROCID``/``SLURM_NTASKS`` to its rank
and world size. The scripts are the files the page shows, ``snippets/multinode/``, run as they are.

Needs root and the distribution's ``slurm-wlm`` and ``munge`` (``make system-deps`` installs them); skipped
with the reason elsewhere.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from refsite.testing.machine import cannot_run

from ranktest import cluster
from ranktest.cluster import slurm
from ranktest.cluster import Cluster
from ranktest.cluster.slurm import Slurm

if reason := cluster.unavailable() or slurm.unavailable():
    cannot_run(f"Slurm on a virtual cluster: {reason}", module=True)

pytestmark = pytest.mark.slow

TIMEOUT_S = 150

#: The scripts the clusters page shows, run as they are (2 nodes, 2 CPU workers per node).
SCRIPTS = Path(__file__).resolve().parents[2] / "snippets" / "multinode"
SBATCH_TORCHRUN = (SCRIPTS / "slurm_torchrun.sh").read_text()
SBATCH_STATIC = (SCRIPTS / "slurm_static.sh").read_text()
SBATCH_SRUN = (SCRIPTS / "slurm_srun.sh").read_text()

FOUR_RANKS = [
    "rank 0: node 0, local rank 0, world size 4, sum of ranks 6",
    "rank 1: node 0, local rank 1, world size 4, sum of ranks 6",
    "rank 2: node 1, local rank 0, world size 4, sum of ranks 6",
    "rank 3: node 1, local rank 1, world size 4, sum of ranks 6",
]


@pytest.fixture(scope="module")
def slurm_cluster() -> Iterator[Slurm]:
    with Cluster(hosts=2) as made, Slurm(made) as daemons:
        yield daemons


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    (tmp_path / "train.py").write_text((SCRIPTS / "train.py").read_text())
    return tmp_path


def job_env() -> dict[str, str]:
    """The submitting shell's environment, with this project's python and torchrun first."""
    return dict(os.environ, PATH=f"{Path(sys.executable).parent}:{os.environ['PATH']}")


def rank_lines(output: str) -> list[str]:
    return sorted(line for line in output.splitlines() if line.startswith("rank "))


def test_srun_runs_on_both_nodes(slurm_cluster: Slurm) -> None:
    assert slurm_cluster.node_states() == {"node0": "idle", "node1": "idle"}
    done = slurm_cluster.srun(["-N2", "hostname"], timeout=60)
    assert done.returncode == 0 and sorted(done.stdout.split()) == ["node0", "node1"], done.stdout


def test_sbatch_srun_torchrun_with_c10d_rendezvous(slurm_cluster: Slurm, workdir: Path) -> None:
    job = slurm_cluster.run_batch(SBATCH_TORCHRUN, cwd=workdir, env=job_env(), timeout=TIMEOUT_S)
    assert (job.state, job.exit_code, job.nodes) == ("COMPLETED", "0:0", ("node0", "node1")), job.output
    lines = rank_lines(job.output)
    # c10d numbers the nodes by their host names (node0 first), as the static rendezvous does
    assert lines == FOUR_RANKS, job.output


def test_sbatch_srun_torchrun_with_static_rendezvous(slurm_cluster: Slurm, workdir: Path) -> None:
    job = slurm_cluster.run_batch(SBATCH_STATIC, cwd=workdir, env=job_env(), timeout=TIMEOUT_S)
    assert (job.state, job.exit_code) == ("COMPLETED", "0:0"), job.output
    assert rank_lines(job.output) == FOUR_RANKS, job.output


def test_sbatch_srun_without_torchrun(slurm_cluster: Slurm, workdir: Path) -> None:
    job = slurm_cluster.run_batch(SBATCH_SRUN, cwd=workdir, env=job_env(), timeout=TIMEOUT_S)
    assert (job.state, job.exit_code) == ("COMPLETED", "0:0"), job.output
    assert rank_lines(job.output) == FOUR_RANKS, job.output


def test_nodes_state_their_memory_and_gpus(slurm_cluster: Slurm) -> None:
    # Each node offers stated memory (so --mem can be met) and GPUs that Slurm counts on a gpu
    # partition (no device exists: the scheduling is what can be checked here).
    shown = slurm_cluster.cluster.hosts[0].run(["scontrol", "show", "node", "node0"], timeout=10).stdout
    assert f"RealMemory={slurm.MEMORY_MB} " in shown, shown
    assert f"Gres=gpu:{slurm.GPUS_PER_NODE}" in shown, shown
    assert f"Partitions={slurm_cluster.partition},{slurm.GPU_PARTITION}" in shown, shown


def test_the_torchrun_script_asks_for_gpus_and_memory_as_the_page_says(slurm_cluster: Slurm,
                                                                         workdir: Path) -> None:
    # The page: on GPU nodes, ask for them (--gpus-per-node) next to the same script.
    args = ["-p", slurm.GPU_PARTITION, "--gpus-per-node=2", "--mem=1G"]
    job = slurm_cluster.run_batch(SBATCH_TORCHRUN, args=args, cwd=workdir, env=job_env(), timeout=TIMEOUT_S)
    assert (job.state, job.exit_code, job.nodes) == ("COMPLETED", "0:0", ("node0", "node1")), job.output
    assert rank_lines(job.output) == FOUR_RANKS, job.output
    fields = slurm_cluster.job(job.id)
    assert (fields["Partition"], fields["TresPerNode"], fields["MinMemoryNode"]) == (
        slurm.GPU_PARTITION, "gres:gpu:2", "1G"), fields
    too_much = slurm_cluster.cluster.hosts[0].run(
        ["sbatch", f"--mem={2 * slurm.MEMORY_MB}M", "--wrap=true"], timeout=30)
    assert too_much.returncode != 0 and "memory" in too_much.stdout.lower(), too_much.stdout
