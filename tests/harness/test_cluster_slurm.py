"""A real 2-node Slurm (``ranktest.slurm``) on the virtual cluster: the batch scripts of the
clusters page (``docs/en/debugging/clusters.md``) run under ``sbatch``: ``srun`` starts one
``torchrun`` per node with the head node from ``scontrol show hostnames`` (c10d rendezvous, and
the static one with ``--node-rank=$SLURM_NODEID`` expanded on each node), and ``srun`` without
``torchrun`` starts one task per rank, which maps ``SLURM_PROCID``/``SLURM_NTASKS`` to its rank
and world size. The scripts differ from the page only where the machine does: no GPUs, 2 CPUs.

Needs root and the distribution's ``slurm-wlm`` and ``munge`` (``make cluster-deps``); skipped
with the reason elsewhere.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from refsite.testing.machine import cannot_run

from ranktest import cluster, slurm
from ranktest.cluster import Cluster
from ranktest.slurm import Slurm

if reason := cluster.unavailable() or slurm.unavailable():
    cannot_run(f"Slurm on a virtual cluster: {reason}", module=True)

pytestmark = pytest.mark.slow

TIMEOUT_S = 150

TRAIN = '''\
import os
import socket
import sys

import torch
import torch.distributed as dist

dist.init_process_group("gloo")
total = torch.tensor([float(dist.get_rank())])
dist.all_reduce(total)
line = (f"host={socket.gethostname()} rank={dist.get_rank()} local_rank={os.environ['LOCAL_RANK']} "
        f"world_size={dist.get_world_size()} sum={total.item()}\\n")
sys.stdout.write(line)  # one write: the workers of a node share one stdout
sys.stdout.flush()
dist.barrier()
dist.destroy_process_group()
'''

#: The page's script: 2 nodes instead of 4, 2 CPU workers per node instead of 8 GPUs.
SBATCH_TORCHRUN = '''\
#!/bin/bash
#SBATCH --job-name=train
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=1
#SBATCH --cpus-per-task=2

head=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)
export OMP_NUM_THREADS=1

srun torchrun \\
    --nnodes="$SLURM_NNODES" \\
    --nproc-per-node=2 \\
    --rdzv-backend=c10d \\
    --rdzv-endpoint="$head:29500" \\
    --rdzv-id="$SLURM_JOB_ID" \\
    train.py
'''

#: The static rendezvous: --node-rank must be expanded on each node, hence bash -c '...'.
SBATCH_STATIC = '''\
#!/bin/bash
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=1

export MASTER_ADDR=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)
export OMP_NUM_THREADS=1

srun bash -c 'torchrun --nnodes=$SLURM_NNODES --node-rank=$SLURM_NODEID --nproc-per-node=2 \\
    --master-addr=$MASTER_ADDR --master-port=29500 train.py'
'''

#: Without torchrun: srun starts every rank; the script maps Slurm's variables itself.
TRAIN_SRUN = '''\
import os
import socket
import sys

import torch
import torch.distributed as dist

os.environ["RANK"] = os.environ["SLURM_PROCID"]
os.environ["WORLD_SIZE"] = os.environ["SLURM_NTASKS"]
os.environ["LOCAL_RANK"] = os.environ["SLURM_LOCALID"]
dist.init_process_group("gloo")  # env://: MASTER_ADDR and MASTER_PORT come from the batch script
total = torch.tensor([float(dist.get_rank())])
dist.all_reduce(total)
line = (f"host={socket.gethostname()} rank={dist.get_rank()} local_rank={os.environ['LOCAL_RANK']} "
        f"world_size={dist.get_world_size()} sum={total.item()}\\n")
sys.stdout.write(line)  # one write: the workers of a node share one stdout
sys.stdout.flush()
dist.barrier()
dist.destroy_process_group()
'''

SBATCH_SRUN = '''\
#!/bin/bash
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=2

export MASTER_ADDR=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)
export MASTER_PORT=29500
export OMP_NUM_THREADS=1

srun python train_srun.py
'''

FOUR_RANKS = [
    "host=node0 rank=0 local_rank=0 world_size=4 sum=6.0",
    "host=node0 rank=1 local_rank=1 world_size=4 sum=6.0",
    "host=node1 rank=2 local_rank=0 world_size=4 sum=6.0",
    "host=node1 rank=3 local_rank=1 world_size=4 sum=6.0",
]


@pytest.fixture(scope="module")
def slurm_cluster() -> Iterator[Slurm]:
    with Cluster(hosts=2) as made, Slurm(made) as daemons:
        yield daemons


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    (tmp_path / "train.py").write_text(TRAIN)
    (tmp_path / "train_srun.py").write_text(TRAIN_SRUN)
    return tmp_path


def job_env() -> dict[str, str]:
    """The submitting shell's environment, with this project's python and torchrun first."""
    return dict(os.environ, PATH=f"{Path(sys.executable).parent}:{os.environ['PATH']}")


def rank_lines(output: str) -> list[str]:
    return sorted(line for line in output.splitlines() if line.startswith("host="))


def test_srun_runs_on_both_nodes(slurm_cluster: Slurm) -> None:
    assert slurm_cluster.node_states() == {"node0": "idle", "node1": "idle"}
    done = slurm_cluster.srun(["-N2", "hostname"], timeout=60)
    assert done.returncode == 0 and sorted(done.stdout.split()) == ["node0", "node1"], done.stdout


def test_sbatch_srun_torchrun_with_c10d_rendezvous(slurm_cluster: Slurm, workdir: Path) -> None:
    job = slurm_cluster.run_batch(SBATCH_TORCHRUN, cwd=workdir, env=job_env(), timeout=TIMEOUT_S)
    assert (job.state, job.exit_code, job.nodes) == ("COMPLETED", "0:0", ("node0", "node1")), job.output
    lines = rank_lines(job.output)
    assert {line.split()[1] for line in lines} == {f"rank={r}" for r in range(4)}, job.output
    assert len(lines) == 4, job.output
    for line in lines:  # c10d numbers the nodes in the order they join: either node may be 0
        fields = dict(field.split("=") for field in line.split())
        assert (fields["world_size"], fields["sum"]) == ("4", "6.0")


def test_sbatch_srun_torchrun_with_static_rendezvous(slurm_cluster: Slurm, workdir: Path) -> None:
    job = slurm_cluster.run_batch(SBATCH_STATIC, cwd=workdir, env=job_env(), timeout=TIMEOUT_S)
    assert (job.state, job.exit_code) == ("COMPLETED", "0:0"), job.output
    assert rank_lines(job.output) == FOUR_RANKS, job.output


def test_sbatch_srun_without_torchrun(slurm_cluster: Slurm, workdir: Path) -> None:
    job = slurm_cluster.run_batch(SBATCH_SRUN, cwd=workdir, env=job_env(), timeout=TIMEOUT_S)
    assert (job.state, job.exit_code) == ("COMPLETED", "0:0"), job.output
    assert rank_lines(job.output) == FOUR_RANKS, job.output
