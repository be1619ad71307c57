"""What Slurm job one snippet variant becomes (``make doctest-slurm``): its resources and the
batch script that runs the variant's own ``Run:`` command. Pure: nothing here talks to Slurm.

The resources follow what the variant declares:

- a ``python`` snippet: one node, one task, its GPUs (``cuda``: 1, or what ``Variants:`` says);
- a ``torchrun`` snippet: one ``torchrun`` per node (``srun --ntasks-per-node=1``), as many
  ranks per node as one node can hold. A GPU variant gets one rank's GPUs per rank; when a
  node has fewer GPUs than the variant needs, the ranks are spread over several nodes (the
  same number on each). A CPU variant runs on one node unless ``ranks_per_node`` caps it.
- the variant's timeout (:func:`snippet_runs.timeout_of`: its ``Timeout:`` header, then the
  command line's, then the copied-alone default) plus :data:`JOB_OVERHEAD_S`, in whole minutes
  (Slurm's unit), as the job's time limit.

A multi-node launch uses torchrun's static rendezvous on the allocation's first node, with
``--node-rank=$SLURM_NODEID``: node ``n`` then holds global ranks ``n * nproc ... n * nproc +
nproc - 1``, so each rank's log file is known to be that rank's (c10d's rendezvous numbers
nodes in an order of its own, which would leave a record's ranks to chance).
"""

from __future__ import annotations

import dataclasses
import math
import re
import shlex
from pathlib import Path

from refsite import snippets
from refsite.testing import snippet_runs

#: Seconds a job needs besides its snippet: the provenance probe imports torch once.
JOB_OVERHEAD_S = 30
#: CPUs for a python snippet that starts processes itself (it says not how many).
SPAWNING_CPUS = 4
#: Where a job's files are, relative to its directory (the collector reads them there).
PROVENANCE, LAUNCHER, EXIT_CODE, RANK_LOGS = "provenance.json", "launcher-%t.out", "exit-code", "logs"
#: The job's exit status when the probe failed (no torch in the job's Python, say).
PROBE_FAILED = 3
#: The script that writes ``provenance.json`` on the first node (torch, GPUs; no host names).
PROBE = Path(__file__).with_name("probe.py")

_LAUNCH_FLAGS = re.compile(r"^--(standalone|nnodes|nproc[-_]per[-_]node|node[-_]rank|rdzv[-_]\w+|master[-_]\w+)\b")


class PlanError(ValueError):
    """A variant that cannot be laid out on the cluster's nodes; the message says why."""


@dataclasses.dataclass(frozen=True)
class NodeShape:
    """What one node of the partition offers: CPUs and GPUs (``sinfo``'s ``%c`` and ``%G``)."""

    cpus: int
    gpus: int


@dataclasses.dataclass(frozen=True)
class JobPlan:
    """One variant as one Slurm job."""

    spec: snippets.Spec
    variant: snippets.Variant
    rel: str                 # the snippet's path under snippets/
    nodes: int
    ranks_per_node: int      # torchrun's --nproc-per-node (1 for a python snippet)
    gpus_per_node: int
    cpus_per_task: int       # one task per node
    time_min: int
    partition: str | None

    @property
    def name(self) -> str:
        """The job's name: ``doctest:distributed/all_reduce.py[nccl-cuda-2]``."""
        return f"doctest:{self.rel}[{self.variant.id}]"

    def sbatch_args(self) -> list[str]:
        """The ``sbatch`` options of this job (also written as ``#SBATCH`` lines)."""
        args = [f"--job-name={self.name}", f"--nodes={self.nodes}", "--ntasks-per-node=1",
                f"--cpus-per-task={self.cpus_per_task}", f"--time={self.time_min}"]
        if self.gpus_per_node:
            args.append(f"--gpus-per-node={self.gpus_per_node}")
        if self.partition:
            args.append(f"--partition={self.partition}")
        return args


    def step_args(self) -> list[str]:
        """The options of a job step (``srun``): one task per node, with the job's CPUs and GPUs."""
        gpus = [f"--gpus-per-node={self.gpus_per_node}"] if self.gpus_per_node else []
        return ["--ntasks-per-node=1", f"--cpus-per-task={self.cpus_per_task}", *gpus]


def plan(spec: snippets.Spec, variant: snippets.Variant, rel: str, node: NodeShape, *,
         partition: str | None = None, ranks_per_node: int | None = None,
         timeout: float | None = None) -> JobPlan:
    """The job for ``variant`` on nodes shaped like ``node``; :class:`PlanError` if none fits."""
    seconds = snippet_runs.timeout_of(spec, timeout, snippet_runs.ALONE_TIMEOUT_S) + JOB_OVERHEAD_S
    time_min = math.ceil(seconds / 60)
    world, gpus = variant.world_size, variant.gpus
    if not spec.torchrun:  # one process, whatever it starts itself
        if gpus > node.gpus:
            raise PlanError(f"{rel} [{variant.id}] needs {gpus} GPUs in one process; a node has {node.gpus}")
        cpus = min(node.cpus, SPAWNING_CPUS) if spec.starts_processes else 1
        return JobPlan(spec, variant, rel, 1, 1, gpus, cpus, time_min, partition)
    if gpus:
        if gpus <= node.gpus:
            per_node = world
        elif gpus % world:
            raise PlanError(f"{rel} [{variant.id}]: {world} ranks share {gpus} GPUs, more than a node's "
                            f"{node.gpus}; ranks that share a GPU cannot be spread over nodes")
        else:
            per_node = node.gpus // (gpus // world)
    else:
        per_node = world
    if ranks_per_node:
        per_node = min(per_node, ranks_per_node)
    while per_node > 1 and world % per_node:  # the same number of ranks on every node
        per_node -= 1
    if per_node < 1:
        raise PlanError(f"{rel} [{variant.id}]: one rank needs {gpus // world} GPUs; a node has {node.gpus}")
    nodes = world // per_node
    gpus_per_node = math.ceil(gpus / nodes) if gpus else 0
    cpus = max(1, min(node.cpus, per_node))
    return JobPlan(spec, variant, rel, nodes, per_node, gpus_per_node, cpus, time_min, partition)


def launch_command(job: JobPlan, python: str) -> str:
    """The variant's ``Run:`` command as one node runs it: ``python FILE`` with the job's
    Python, or ``torchrun`` with the job's layout (launch flags of the ``Run:`` line replaced)
    and each local rank's stdout and stderr in files under :data:`RANK_LOGS`."""
    words = shlex.split(job.spec.run)
    rest = [w for w in words[1:] if not _LAUNCH_FLAGS.match(w)]
    py = shlex.quote(python)
    if not job.spec.torchrun:
        return f"{py} {shlex.join(rest)}"
    if job.nodes == 1:
        layout = ["--standalone", f"--nproc-per-node={job.ranks_per_node}"]
    else:
        layout = [f"--nnodes={job.nodes}", "--node-rank=$SLURM_NODEID",
                  f"--nproc-per-node={job.ranks_per_node}", "--master-addr=$MASTER_ADDR",
                  "--master-port=$MASTER_PORT"]
    logs = [f"--log-dir={RANK_LOGS}/node$SLURM_NODEID", "--redirects=3"]
    return " ".join([f"{py} -m torch.distributed.run", *layout, *logs, shlex.join(rest)])


def batch_script(job: JobPlan, python: str) -> str:
    """The batch script of ``job``: ``#SBATCH`` lines, the variant's environment, the
    provenance probe on the first node, then ``srun`` with one launch per node."""
    env = " ".join(f"{k}={shlex.quote(v)}" for k, v in sorted(job.variant.env.items()))
    head = [f"#SBATCH {arg}" for arg in job.sbatch_args()]
    py = shlex.quote(python)
    multi = job.nodes > 1
    # Each step asks for the job's CPUs and GPUs itself: a step is not given them by default.
    step = " ".join(job.step_args())
    if job.spec.torchrun:
        launch = (f"srun {step} --kill-on-bad-exit=1 --output={LAUNCHER} "
                  f"bash -c {shlex.quote(launch_command(job, python))}")
    else:  # the one process's own stdout and stderr, where torchrun would write rank 0's
        logs = f"{RANK_LOGS}/node0"
        launch = (f"mkdir -p {logs} && srun {step} --output={logs}/stdout.log --error={logs}/stderr.log "
                  f"{launch_command(job, python)}")
    lines = [
        "#!/bin/bash",
        f"# {job.rel} [{job.variant.id}]: {job.spec.command(job.variant)}",
        *head,
        f"#SBATCH --output={LAUNCHER.replace('%t', 'job')}",
        "",
        f"export {env} OMP_NUM_THREADS=1",
        *(["export MASTER_ADDR=$(scontrol show hostnames \"$SLURM_JOB_NODELIST\" | head -n 1)",
           "export MASTER_PORT=$((20000 + SLURM_JOB_ID % 20000))"] if multi else []),
        "# what runs the jobs: torch and the GPUs (no host names), for the records",
        f"srun --nodes=1 --ntasks=1 {' '.join(job.step_args()[1:])} {py} {PROBE.name} > {PROVENANCE} || exit {PROBE_FAILED}",
        f"# the Run: line, one launch per node; each rank's stdout and stderr in {RANK_LOGS}/",
        launch,
        f"echo $? > {EXIT_CODE}",
    ]
    return "\n".join(lines) + "\n"
