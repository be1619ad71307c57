"""The elastic scenarios of ``measure_cluster``: ``train_elastic.py`` under ``torchrun
--nnodes=1:2`` with the c10d rendezvous on a 2-host virtual cluster (2 ranks per host).

``elastic_join``: ``node0`` starts alone; once its workers run, ``node1`` starts the same
command (a node joining late); as torch ships it, then with ``TORCH_DISABLE_SHARE_RDZV_TCP_STORE=1``.
``elastic_restart``: both nodes start with ``--max-restarts=1``; once the 4 ranks run, every
process of ``node1`` is killed, and ``node0`` goes on alone from the checkpoint; the same two ways.

Where a restart resumes depends on timing (how many steps ran before the change), so rank lines
keep ``from step <n>`` / ``step <n> failed`` and the run keeps the numbers (``resumed_from``).
Times are taken as in :mod:`cluster_fault_scenarios`, from the change (``node1`` started or
killed): to node0's workers at world size 4 (join) or its first failure and its restart
(restart), and to each ``torchrun``'s exit.
"""

from __future__ import annotations

import re
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from ranktest.cluster import Cluster, Host
from refsite.commands.cluster.fault_scenarios import FAILED, Watched, elapsed

ELASTIC = "multinode/train_elastic.py"
UNSHARED = "TORCH_DISABLE_SHARE_RDZV_TCP_STORE=1"
#: Steps of a run: enough for node0 alone to be still training when node1 has started.
STEPS = {"elastic_join": 60, "elastic_restart": 16}
START_TIMEOUT_S = 90
#: Seconds every node may take to end after the change (the store's own timeout is 60 s).
END_TIMEOUT_S = 150
_STEP = re.compile(r"(?<!finished )\b(from step|step) ([1-9]\d*)\b")


def argv(scenario: str, run_id: str, unshared: bool) -> Callable[[Host], list[str]]:
    extra = ["--max-restarts=1"] if scenario == "elastic_restart" else []
    env = ["env", UNSHARED] if unshared else []
    return lambda host: [*env, "torchrun", "--nnodes=1:2", "--nproc-per-node=2", *extra,
                         "--rdzv-backend=c10d", "--rdzv-endpoint=node0:29400",
                         f"--rdzv-id={run_id}", "--rdzv-conf=last_call_timeout=5",
                         Path(ELASTIC).name, str(STEPS[scenario])]


def _mask_steps(entry: dict, resumed: set[int]) -> dict:
    for rank, lines in entry["ranks"].items():
        masked = []
        for line in lines:
            resumed.update(int(m.group(2)) for m in _STEP.finditer(line) if m.group(1) == "from step")
            masked.append(_STEP.sub(lambda m: f"{m.group(1)} <n>", line))
        entry["ranks"][rank] = masked
    return entry


def elastic_run(scenario: str, workdir: Path, unshared: bool) -> dict:
    name = scenario + ("_unshared_store" if unshared else "")
    run_id = name.replace("_", "-")
    for stale in Path(tempfile.gettempdir()).glob(f"job-{run_id}.pt*"):  # the script's checkpoint
        stale.unlink()
    command = argv(scenario, run_id, unshared)
    with Cluster(hosts=2) as cluster:
        node0, node1 = cluster.hosts
        began = time.monotonic()
        nodes = [Watched(node0, command(node0), workdir)]
        if scenario == "elastic_join":
            nodes[0].wait_for(re.compile(r"^rank 0: .*world size 2, from step 0$"), START_TIMEOUT_S)
            made = time.monotonic()
            nodes.append(Watched(node1, command(node1), workdir))
        else:
            nodes.append(Watched(node1, command(node1), workdir))
            nodes[0].wait_for(re.compile(r"^rank 0: .*world size 4, from step 0$"), START_TIMEOUT_S)
            time.sleep(1.0)
            made = time.monotonic()
            node1.kill()
        codes = [node.finish(made + END_TIMEOUT_S) for node in nodes]
        times = {"bring_up_s": cluster.bring_up_s, "change_at_s": made - began}
        watch = nodes[0]
        if scenario == "elastic_join":
            times["node0_world_4_s"] = elapsed(watch.first(re.compile(r"world size 4, from"), made), made)
        else:
            times["node0_detection_s"] = elapsed(watch.first(FAILED, made), made)
            times["node0_resumed_s"] = elapsed(watch.first(re.compile(r"restart 1, "), made), made)
        for node, code in zip(nodes, codes):
            if node.host.index == 0 or code != -9:
                times[f"{node.host.name}_agent_exit_s"] = elapsed(node.ended, made)
        resumed: set[int] = set()
        hosts = [_mask_steps(node.entry(code), resumed) for node, code in zip(nodes, codes)]
        for left in Path(tempfile.gettempdir()).glob(f"job-{run_id}.pt*"):  # a run that failed
            left.unlink()
        return {"name": name, **times, "elapsed_s": time.monotonic() - began,
                "timeout_s": END_TIMEOUT_S, "resumed_from": sorted(resumed),
                "figures": {"resumed_from": ", ".join(map(str, sorted(resumed))) or "none",
                            "steps": str(STEPS[scenario])},
                "hosts": hosts}


def elastic_join(workdir: Path) -> list[dict]:
    return [elastic_run("elastic_join", workdir, unshared) for unshared in (False, True)]


def elastic_restart(workdir: Path) -> list[dict]:
    return [elastic_run("elastic_restart", workdir, unshared) for unshared in (False, True)]
