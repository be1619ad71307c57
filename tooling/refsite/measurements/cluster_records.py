"""The records of multi-node scenarios run on a virtual cluster: ``docs/measurements/cluster/<name>.json``.

Written only by ``python -m refsite.commands.cluster.cli`` (``make cluster-records``) through
:func:`write`; the ``{cluster-record}`` directive shows one on a page (:func:`check`), the
``{measured}`` role quotes its figures. A record (:class:`ClusterRecord`) holds the scenario,
its provenance (:class:`~refsite.measurements.provenance.Provenance`), ``scripts`` (the sha256 of
every script the scenario ran, by path under ``snippets/``) and ``results``: ``passed`` (how
many of ``repeat`` attempts printed what the first did), ``runs`` (each a list of ``hosts``)
and, by run name, the figures ``{measured}`` quotes (``bring_up``, ``elapsed``, ``alike``)::

    {"host": "node0", "command": "torchrun ...", "exit_code": 0,
     "agent": ["lines torchrun printed itself"], "ranks": {"0": ["lines rank 0 printed"]}}

Outputs are normalized (no pids, ephemeral ports, timestamps or temporary paths), so two runs of
a scenario that behaves the same write the same lines. Format 2 writes ``passed`` as a number;
format 1 (no ``format`` key) wrote the text ``"N of M"`` and is still read. Standard library
only: the doc build, the measurement and the tests share it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from pathlib import Path

from refsite.measurements.provenance import Provenance, read_provenance, write_measurement

#: Where the records are, relative to the checkout's root.
RECORDS_DIR = Path("docs/measurements/cluster")
#: The command that rewrites every record (or one: ``make cluster-records SCENARIOS=static``).
FIX_COMMAND = "make cluster-records"
#: The format :func:`write` writes, and those :func:`read` reads.
CLUSTER_FORMAT = 2
READABLE_FORMATS = (1, 2)


@dataclasses.dataclass(frozen=True)
class Scenario:
    """A multi-node scenario: what it shows (its record's ``what``), the scripts it runs (by
    path under ``snippets/``) and the function that runs it (``module:function`` of
    ``refsite.testing``, taking a work folder and returning the runs)."""

    what: str
    scripts: tuple[str, ...]
    runner: str


_TRAIN, _STEPS = "multinode/train.py", "multinode/train_steps.py"
_ELASTIC, _TIMING = "multinode/train_elastic.py", "multinode/allreduce_timing.py"
#: Every scenario, by name: the one list ``make cluster-records`` runs and the pages' records
#: (``{cluster-record} NAME``) are checked against.
SCENARIOS: dict[str, Scenario] = {
    "static": Scenario("torchrun with the static rendezvous (--master-addr, --node-rank) on 2 hosts x 2 ranks",
                       (_TRAIN,), "scenarios:static"),
    "c10d": Scenario("torchrun with the c10d rendezvous (--rdzv-endpoint) on 2 hosts x 2 ranks",
                     (_TRAIN,), "scenarios:c10d"),
    "hostname": Scenario("the static launch by address on hosts that share one host name (gloo picks "
                         "loopback), then on hosts with their own name and hosts file",
                         (_TRAIN,), "scenarios:hostname"),
    "slurm": Scenario("sbatch -> srun -> torchrun (c10d, head node from scontrol show hostnames), and srun "
                      "without torchrun, on a real 2-node Slurm",
                      (_TRAIN, "multinode/slurm_torchrun.sh", "multinode/slurm_srun.sh"), "scenarios:slurm"),
    "node_killed": Scenario("train_steps.py on 2 hosts x 2 ranks (static rendezvous); after step 2 every "
                            "process of node1 is killed", (_STEPS,), "fault_scenarios:node_killed"),
    "link_down": Scenario("train_steps.py on 2 hosts x 2 ranks (static rendezvous); after step 2 node1's "
                          "link goes down (its switch port), and stays down", (_STEPS,),
                          "fault_scenarios:link_down"),
    "c10d_link_down": Scenario("train_steps.py on 2 hosts x 2 ranks with the c10d rendezvous (node0 hosts its "
                               "store); after step 2 node1's link goes down and stays down; as torch ships "
                               "it, then with read_timeout=10, join_timeout=30, close_timeout=10 and "
                               "heartbeat_timeout=5 in --rdzv-conf, then with net.ipv4.tcp_retries2=8 on "
                               "the hosts", (_STEPS,), "fault_scenarios:c10d_link_down"),
    "socket_ifname": Scenario("train.py on hosts sharing one host name, with GLOO_SOCKET_IFNAME=eth0 (the "
                              "hosts' interface), then GLOO_SOCKET_IFNAME=eth1 (an interface they lack)",
                              (_TRAIN,), "fault_scenarios:socket_ifname"),
    "c10d_hostname": Scenario("train.py launched with the c10d rendezvous (endpoint by address) on hosts "
                              "sharing one host name; then with --rdzv-conf=is_host=1 on node0 (and "
                              "LOGLEVEL=INFO); then with --local-addr on each node; then with "
                              "GLOO_SOCKET_IFNAME=eth0 as well", (_TRAIN,), "fault_scenarios:c10d_hostname"),
    "slow_link": Scenario("allreduce_timing.py on 2 hosts x 1 rank (static rendezvous): all_reduce of "
                          "1 MiB of float32, 2 warm-up and 5 timed rounds, with node1's link unlimited, "
                          "then limited to 50 and to 10 Mbit/s (tc tbf, both ways)", (_TIMING,),
                          "slow_link:slow_link"),
    "elastic_join": Scenario("train_elastic.py under torchrun --nnodes=1:2 (c10d, 2 ranks per host): node0 "
                             "starts alone, node1 starts once node0's workers run; as torch ships it, then "
                             "with TORCH_DISABLE_SHARE_RDZV_TCP_STORE=1", (_ELASTIC,), "elastic:elastic_join"),
    "elastic_restart": Scenario("train_elastic.py under torchrun --nnodes=1:2 --max-restarts=1 (c10d, 2 "
                                "ranks per host); once the 4 ranks run, every process of node1 is killed; "
                                "as torch ships it, then with TORCH_DISABLE_SHARE_RDZV_TCP_STORE=1",
                                (_ELASTIC,), "elastic:elastic_restart"),
}


class RecordError(ValueError):
    """A cluster record that is missing, malformed or stale (the message names the fix)."""


@dataclasses.dataclass(frozen=True)
class ClusterRecord:
    """One scenario's record."""

    scenario: str
    what: str
    provenance: Provenance
    scripts: dict[str, str]     # path under snippets/ -> sha256
    passed: int                 # attempts that printed what the first attempt did
    repeat: int                 # attempts
    runs: list[dict]            # the last attempt's runs, as recorded
    figures: dict[str, dict]    # run name -> the figures {measured} quotes

    def run(self, name: str) -> dict | None:
        return next((r for r in self.runs if r["name"] == name), None)


def sha256(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def record_path(root: Path, scenario: str) -> Path:
    """The record of ``scenario`` in the checkout at ``root``."""
    return Path(root) / RECORDS_DIR / f"{scenario}.json"


def write(path: Path, record: ClusterRecord) -> None:
    """Write ``record`` in the current format."""
    results = {"passed": record.passed, "repeat": record.repeat, "runs": record.runs, **record.figures}
    write_measurement(path, record.provenance, {"scripts": record.scripts, "results": results},
                      head={"format": CLUSTER_FORMAT, "scenario": record.scenario, "what": record.what})


def read(path: Path) -> ClusterRecord:
    """Load one record; :class:`RecordError` says what is wrong and how to fix it."""
    fix = f"run '{FIX_COMMAND} SCENARIOS={Path(path).stem}'"
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RecordError(f"{path}: no such cluster record; {fix}") from None
    except (OSError, json.JSONDecodeError) as exc:
        raise RecordError(f"{path}: not valid JSON ({exc}); {fix}") from None
    version = data.get("format", 1)
    if version not in READABLE_FORMATS:
        raise RecordError(f"{path}: cluster record format {version!r}, this tooling reads "
                          f"{', '.join(map(str, READABLE_FORMATS))}; {fix}")
    try:
        provenance = read_provenance(data, str(path))
        results = dict(data["results"])
        passed, repeat, runs = results.pop("passed"), results.pop("repeat", None), results.pop("runs")
        if version == 1:  # "N of M"; ``repeat`` was not always written
            count, _, of = passed.partition(" of ")
            passed, repeat = int(count), int(of) if repeat in (None, int(of)) else None
        if not (isinstance(passed, int) and isinstance(repeat, int) and isinstance(runs, list)):
            raise ValueError("results.passed, results.repeat and results.runs must be two counts and a list")
        return ClusterRecord(data["scenario"], data.get("what", ""), provenance, dict(data["scripts"]),
                             passed, repeat, runs, results)
    except (KeyError, ValueError, TypeError, AttributeError) as exc:
        raise RecordError(f"{path}: malformed cluster record ({type(exc).__name__}: {exc}); {fix}") from None


def stale_reason(record: ClusterRecord, snippets_root: Path) -> str | None:
    """Why a record no longer matches the scripts it ran (``snippets_root``: the ``snippets/``
    folder), or ``None`` when every script is as it was."""
    for rel, recorded in sorted(record.scripts.items()):
        path = Path(snippets_root) / rel
        if not path.is_file():
            return f"it ran snippets/{rel}, which no longer exists"
        if sha256(path) != recorded:
            return f"snippets/{rel} changed since it was recorded"
    return None


def check(path: Path, snippets_root: Path) -> ClusterRecord:
    """:func:`read`, then :class:`RecordError` when the record is stale, naming the fix."""
    record = read(path)
    if reason := stale_reason(record, snippets_root):
        raise RecordError(f"{path} is stale: {reason}; run "
                          f"'{FIX_COMMAND} SCENARIOS={record.scenario}'")
    return record
