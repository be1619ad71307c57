"""The slow-link scenario of ``measure_cluster``: ``allreduce_timing.py`` on 2 hosts x 1 rank
(static rendezvous), on a fresh virtual cluster per run, first with no limit, then with
``node1``'s link limited (:meth:`ranktest.cluster.faults.Link.limit_rate`, ``tc tbf`` both ways)
to each rate of :data:`RATES_MBIT`. The script's rank 0 writes its times to a JSON file; a run
keeps them (``seconds``) with their median, min and max and the time the payload alone takes at
the rate (``expected_s``: payload x 8 / rate; with 2 ranks each rank sends and receives about
the payload once per all_reduce).
"""

from __future__ import annotations

import json
import statistics
import time
from pathlib import Path

from ranktest.cluster import Cluster, Host
from refsite.commands.cluster import output as cluster_output
from refsite.commands.cluster.scenarios import RUN_TIMEOUT_S, node_env

TIMING = "multinode/allreduce_timing.py"
#: The rates node1's link is limited to, in Mbit/s (None: no limit).
RATES_MBIT = (None, 50, 10)
TIMINGS_FILE = "timings.json"


def argv(host: Host) -> list[str]:
    return ["torchrun", "--nnodes=2", f"--node-rank={host.index}", "--nproc-per-node=1",
            "--master-addr=node0", "--master-port=29500", Path(TIMING).name, TIMINGS_FILE]


def run_name(rate_mbit: float | None) -> str:
    return "no_limit" if rate_mbit is None else f"limit_{rate_mbit:g}mbit"


def timing_run(workdir: Path, rate_mbit: float | None) -> dict:
    timings = workdir / TIMINGS_FILE
    timings.unlink(missing_ok=True)
    with Cluster(hosts=2) as cluster:
        if rate_mbit is not None:
            cluster.hosts[1].link.limit_rate(rate_mbit)
        began = time.monotonic()
        results = cluster.run_each(argv, env=node_env(), cwd=workdir, timeout=RUN_TIMEOUT_S)
        elapsed = time.monotonic() - began
        hosts = [cluster_output.host_entry(h.name, argv(h), r.returncode, r.stdout)
                 for h, r in zip(cluster.hosts, results)]
        if any(r.returncode != 0 for r in results) or not timings.exists():
            raise RuntimeError(f"allreduce_timing.py failed at {run_name(rate_mbit)}: {hosts}")
        measured = json.loads(timings.read_text())
        seconds, payload = measured["seconds"], measured["payload_bytes"]
        run = {"name": run_name(rate_mbit), "rate_mbit": rate_mbit, "payload_bytes": payload,
               "world_size": measured["world_size"], "rounds": len(seconds), "seconds": seconds,
               "median_s": statistics.median(seconds), "min_s": min(seconds),
               "max_s": max(seconds), "bring_up_s": cluster.bring_up_s, "elapsed_s": elapsed,
               "figures": {"payload": f"{payload} bytes", "rounds": str(len(seconds))}}
        if rate_mbit is not None:
            run["expected_s"] = payload * 8 / (rate_mbit * 1e6)
            run["figures"]["rate"] = f"{rate_mbit:g} Mbit/s"
        run["hosts"] = hosts
        return run


def slow_link(workdir: Path) -> list[dict]:
    return [timing_run(workdir, rate) for rate in RATES_MBIT]
