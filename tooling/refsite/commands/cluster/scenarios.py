"""The scenarios of ``measure_cluster``: multi-node launches on a virtual cluster
(:mod:`ranktest.cluster`, :mod:`ranktest.cluster.slurm`), each run the way a reader runs it.

A scenario is a function ``(workdir) -> list of runs``; ``workdir`` holds copies of the scripts
its registry entry names (:data:`refsite.measurements.cluster_records.SCENARIOS`, by path under
``snippets/``), and each run is a dict with ``name``,
``elapsed_s`` (a float), ``bring_up_s`` and ``hosts`` (:func:`cluster_output.host_entry`).
"""

from __future__ import annotations

import os
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

from ranktest.cluster import Cluster, ClusterTimeout, Host
from refsite.measurements import cluster_records
from refsite.commands.cluster import output as cluster_output

TRAIN = "multinode/train.py"
#: Scenarios quick enough to re-run in the test suite.
QUICK = ("static", "c10d", "slurm")
#: Seconds a run may take before its commands are killed (the pitfall's hang ends there).
RUN_TIMEOUT_S = 90
HANG_TIMEOUT_S = 30


def node_env() -> dict[str, str]:
    """The environment of a command on a node: this project's ``torchrun`` and ``python`` first,
    ``OMP_NUM_THREADS=1`` (``torchrun`` warns otherwise), no launcher variables."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("RANK", "WORLD_SIZE", "LOCAL_RANK", "MASTER_ADDR", "MASTER_PORT")}
    env["PATH"] = f"{Path(sys.executable).parent}:{env.get('PATH', '/usr/bin:/bin')}"
    env["OMP_NUM_THREADS"] = "1"
    return env


def static_argv(host: Host, master: str = "node0", script: str = "train.py") -> list[str]:
    return ["torchrun", "--nnodes=2", f"--node-rank={host.index}", "--nproc-per-node=2",
            f"--master-addr={master}", "--master-port=29500", script]


def c10d_argv(host: Host) -> list[str]:
    return ["torchrun", "--nnodes=2", "--nproc-per-node=2", "--rdzv-backend=c10d",
            "--rdzv-endpoint=node0:29400", "--rdzv-id=job42", "train.py"]


def run_torchrun(name: str, workdir: Path, argv: Callable[[Host], list[str]], *,
                 hostnames: bool = True, timeout: float = RUN_TIMEOUT_S,
                 condensed: bool = False) -> dict:
    """One run: a fresh 2-host cluster, ``argv(host)`` on every host at once (``condensed``: what
    torchrun printed through :func:`cluster_output.condense`, for runs that fail)."""
    with Cluster(hosts=2, hostnames=hostnames) as cluster:
        began = time.monotonic()
        try:
            results = cluster.run_each(argv, env=node_env(), cwd=workdir, timeout=timeout)
        except ClusterTimeout as exc:
            results = exc.results
        elapsed = time.monotonic() - began
        hosts = [cluster_output.host_entry(h.name, argv(h), r.returncode, r.stdout, condensed=condensed)
                 for h, r in zip(cluster.hosts, results)]
        return {"name": name, "hostnames": hostnames, "bring_up_s": cluster.bring_up_s,
                "elapsed_s": elapsed, "timeout_s": timeout, "hosts": hosts}


def static(workdir: Path) -> list[dict]:
    return [run_torchrun("static", workdir, static_argv)]


def c10d(workdir: Path) -> list[dict]:
    return [run_torchrun("c10d", workdir, c10d_argv)]


def hostname(workdir: Path) -> list[dict]:
    """The same static launch by address, on hosts without names of their own (they all keep
    this machine's name and hosts file), then on hosts with their own name and hosts file."""
    def argv(host: Host) -> list[str]:
        return static_argv(host, master="198.18.0.1")

    return [run_torchrun("shared_hostname", workdir, argv, hostnames=False, timeout=HANG_TIMEOUT_S,
                         condensed=True),
            run_torchrun("own_hostname", workdir, argv)]


def slurm(workdir: Path) -> list[dict]:
    """The batch scripts under a real Slurm: each rank line names its node (``node N``: the
    N-th host of the job), which gives each host its lines."""
    from ranktest.cluster.slurm import Slurm

    runs = []
    with Cluster(hosts=2) as cluster, Slurm(cluster) as daemons:
        for script in cluster_records.SCENARIOS["slurm"].scripts[1:]:
            began = time.monotonic()
            job = daemons.run_batch((workdir / Path(script).name).read_text(), cwd=workdir,
                                    env=node_env(), timeout=RUN_TIMEOUT_S)
            elapsed = time.monotonic() - began
            other, ranks = cluster_output.split(job.output)
            hosts = []
            for index, name in enumerate(job.nodes):
                mine = {r: lines for r, lines in ranks.items()
                        if re.search(rf"\bnode {index}\b", lines[0])}
                hosts.append({"host": name, "command": f"sbatch {Path(script).name}",
                              "exit_code": None, "agent": [], "ranks": mine})
            runs.append({"name": Path(script).stem, "script": script, "state": job.state,
                         "exit_code": job.exit_code, "other_output": other,
                         "bring_up_s": cluster.bring_up_s, "slurm_start_s": daemons.start_s,
                         "elapsed_s": elapsed, "hosts": hosts})
    return runs
