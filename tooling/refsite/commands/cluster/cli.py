"""Run multi-node scenarios on a virtual cluster and record them (not run by ``make test``).

    .venv/bin/python -m refsite.commands.cluster.cli [SCENARIO ...] [--repeat N]

Each scenario of the registry (:data:`refsite.measurements.cluster_records.SCENARIOS`: what it
shows, its scripts, and the function of :mod:`refsite.commands.cluster.scenarios`,
:mod:`~refsite.commands.cluster.fault_scenarios`, :mod:`~refsite.commands.cluster.slow_link` or
:mod:`~refsite.commands.cluster.elastic` that runs it) runs the scripts of
``snippets/multinode/`` on network-namespace hosts, as root, and writes
``docs/measurements/cluster/<scenario>.json`` (:mod:`refsite.measurements.cluster_records`): per
host and per rank what was printed (normalized), exit codes, times, the command per node, and
provenance (command, date, torch, machine, the sha256 of every script). ``--repeat N``
runs each scenario N times, records the last run and how many of the N passed (every host
printed what the first run's hosts printed), in all and for each run of the scenario. Never
edit a record by hand.
"""

from __future__ import annotations

import argparse
import importlib
import os
import shlex
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from refsite import project
from refsite.measurements import cluster_records, provenance
from refsite.measurements.cluster_records import SCENARIOS


def runner(name: str) -> Callable[[Path], list[dict]]:
    """The function that runs scenario ``name`` (its registry entry's ``module:function``)."""
    module, _, function = SCENARIOS[name].runner.partition(":")
    return getattr(importlib.import_module(f"refsite.commands.cluster.{module}"), function)


def outputs(runs: list[dict]) -> list:
    """What a record compares between runs: per run and host, exit code and lines."""
    return [[(h["host"], h["exit_code"], h["agent"], h["ranks"]) for h in run["hosts"]]
            for run in runs]


def run_scenario(name: str, snippets_root: Path) -> list[dict]:
    with tempfile.TemporaryDirectory(prefix="cluster-") as tmp:
        for rel in SCENARIOS[name].scripts:
            shutil.copy(snippets_root / rel, Path(tmp) / Path(rel).name)
        os.chmod(tmp, 0o755)
        return runner(name)(Path(tmp))


def _seconds(value: float) -> str:
    if value < 0.1:
        return f"{value * 1000:.1f} ms"
    return f"{value:.1f} s" if value >= 1 else f"{value:.2f} s"


def record(name: str, runs: list[dict], passed: int, repeat: int, snippets_root: Path,
           same_by_run: dict[str, int]) -> cluster_records.ClusterRecord:
    """``passed``: attempts whose every run printed what the first attempt's did;
    ``same_by_run``: the same count for each run of the scenario on its own (by run name)."""
    import torch

    figures = {}
    for run in runs:  # figures for {measured}, by run name
        found = {k[:-2]: _seconds(v) for k, v in run.items() if k.endswith("_s") and v is not None}
        found["alike"] = same_by_run[run["name"]]  # of ``repeat``, printed what the first did
        figures[run["name"]] = {**found, **run.pop("figures", {})}
    made = provenance.current("python -m refsite.commands.cluster.cli " + shlex.join(sys.argv[1:]),
                              torch.__version__, load_at="the end")
    scripts = {rel: cluster_records.sha256(snippets_root / rel) for rel in SCENARIOS[name].scripts}
    return cluster_records.ClusterRecord(name, SCENARIOS[name].what, made, scripts, passed, repeat,
                                         runs, figures)


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
        made = record(name, runs, passed, args.repeat, snippets_root, same_by_run)
        path = cluster_records.record_path(root, name)
        cluster_records.write(path, made)
        print(f"wrote {path.relative_to(root)}: {made.passed} of {made.repeat} the same")


if __name__ == "__main__":
    main()
