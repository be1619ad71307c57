"""Run multi-node scenarios on a virtual cluster and record them (not run by ``make test``).

    .venv/bin/python -m refsite.testing.measure_cluster [SCENARIO ...] [--repeat N]

Each scenario (:mod:`refsite.testing.cluster_scenarios`: ``static``, ``c10d``, ``hostname``,
``slurm``; :mod:`refsite.testing.cluster_fault_scenarios`: ``node_killed``, ``link_down``,
``socket_ifname``; :mod:`refsite.testing.cluster_slow_link`: ``slow_link``;
:mod:`refsite.testing.cluster_elastic`: ``elastic_join``, ``elastic_restart``) runs the scripts of
``snippets/multinode/`` on network-namespace hosts, as root, and writes
``docs/measurements/cluster/<scenario>.json`` (:mod:`refsite.snippets.cluster_records`): per
host and per rank what was printed (normalized), exit codes, times, the command per node, and
provenance (command, date, torch, machine, the sha256 of every script). ``--repeat N``
runs each scenario N times, records the last run and how many of the N passed (every host
printed what the first run's hosts printed), in all and for each run of the scenario. Never
edit a record by hand.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import shlex
import shutil
import sys
import tempfile
from pathlib import Path

from refsite import project
from refsite.snippets import cluster_records
from refsite.testing import cluster_elastic as elastic
from refsite.testing import cluster_fault_scenarios as faults
from refsite.testing import cluster_scenarios as base
from refsite.testing import cluster_slow_link as slow

SCENARIOS = {**base.SCENARIOS, **faults.SCENARIOS, **slow.SCENARIOS, **elastic.SCENARIOS}
SCRIPTS = {**base.SCRIPTS, **faults.SCRIPTS, **slow.SCRIPTS, **elastic.SCRIPTS}
WHAT = {**base.WHAT, **faults.WHAT, **slow.WHAT, **elastic.WHAT}


def outputs(runs: list[dict]) -> list:
    """What a record compares between runs: per run and host, exit code and lines."""
    return [[(h["host"], h["exit_code"], h["agent"], h["ranks"]) for h in run["hosts"]]
            for run in runs]


def run_scenario(name: str, snippets_root: Path) -> list[dict]:
    with tempfile.TemporaryDirectory(prefix="cluster-") as tmp:
        for rel in SCRIPTS[name]:
            shutil.copy(snippets_root / rel, Path(tmp) / Path(rel).name)
        os.chmod(tmp, 0o755)
        return SCENARIOS[name](Path(tmp))


def _seconds(value: float) -> str:
    if value < 0.1:
        return f"{value * 1000:.1f} ms"
    return f"{value:.1f} s" if value >= 1 else f"{value:.2f} s"


def record(name: str, runs: list[dict], passed: int, repeat: int, snippets_root: Path,
           same_by_run: dict[str, int]) -> dict:
    """``passed``: attempts whose every run printed what the first attempt's did;
    ``same_by_run``: the same count for each run of the scenario on its own (by run name)."""
    import torch

    started = datetime.datetime.now(datetime.timezone.utc)
    results: dict = {"passed": f"{passed} of {repeat}", "repeat": repeat, "runs": runs}
    for run in runs:  # figures for {measured}, by run name
        figures = {k[:-2]: _seconds(v) for k, v in run.items() if k.endswith("_s") and v is not None}
        figures["alike"] = same_by_run[run["name"]]  # of ``repeat``, printed what the first did
        results[run["name"]] = {**figures, **run.pop("figures", {})}
    return {
        "scenario": name,
        "what": WHAT[name],
        "command": "python -m refsite.testing.measure_cluster " + shlex.join(sys.argv[1:]),
        "torch": torch.__version__,
        "python": platform.python_version(),
        "machine": f"{platform.system()} {platform.machine()}, {os.cpu_count()} CPU cores, "
                   f"load average {os.getloadavg()[0]:.1f} at the end",
        "date": started.strftime("%Y-%m-%d"),
        "scripts": {rel: cluster_records.sha256(snippets_root / rel) for rel in SCRIPTS[name]},
        "results": results,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenarios", nargs="*", choices=[*SCENARIOS, []], default=list(SCENARIOS),
                        metavar="SCENARIO", help=f"default: all ({', '.join(SCENARIOS)})")
    parser.add_argument("--repeat", type=int, default=1, help="runs per scenario (the last is recorded)")
    args = parser.parse_args(argv)
    root = project.root()
    snippets_root = root / "snippets"
    for name in args.scenarios or list(SCENARIOS):
        first, passed, runs, same_by_run = None, 0, [], {}
        for attempt in range(args.repeat):
            runs = run_scenario(name, snippets_root)
            by_run = {run["name"]: outputs([run]) for run in runs}
            first = first if first is not None else by_run
            differing = [n for n, printed in by_run.items() if printed != first.get(n)]
            for run_name in by_run:
                same_by_run[run_name] = same_by_run.get(run_name, 0) + (run_name not in differing)
            passed += not differing
            print(f"{name} {attempt + 1}/{args.repeat}: "
                  f"{'different: ' + ', '.join(differing) if differing else 'same'}", flush=True)
        data = record(name, runs, passed, args.repeat, snippets_root, same_by_run)
        path = cluster_records.record_path(root, name)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {path.relative_to(root)}: {data['results']['passed']} the same")


if __name__ == "__main__":
    main()
