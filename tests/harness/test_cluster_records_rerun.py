"""The quick multi-node scenarios (``static``, ``c10d``, ``slurm``) run again on a virtual
cluster print what their committed records in ``docs/measurements/cluster/`` hold: per host its
exit code, what torchrun printed and what each rank printed. Needs root (and Slurm for
``slurm``); skipped with the reason elsewhere, failing under CI (``refsite.testing.machine``).
About a minute and a half on 2 cores."""

from __future__ import annotations

import pytest

from refsite.snippets import cluster_records
from refsite.testing import measure_cluster
from refsite.testing.cluster_scenarios import QUICK
from refsite.testing.machine import cannot_run
from tests.support.paths import REPO

from ranktest import cluster, slurm

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("scenario", QUICK)
def test_a_quick_scenario_prints_its_record(scenario: str) -> None:
    if reason := cluster.unavailable() or (scenario == "slurm" and slurm.unavailable()):
        cannot_run(f"virtual cluster: {reason}")
    path = cluster_records.record_path(REPO, scenario)
    recorded = cluster_records.check(path, REPO / "snippets")["results"]["runs"]
    runs = measure_cluster.run_scenario(scenario, REPO / "snippets")
    assert measure_cluster.outputs(runs) == measure_cluster.outputs(recorded), (
        f"{scenario} printed something else than {path.relative_to(REPO)} holds; if that is "
        f"expected, run '{cluster_records.FIX_COMMAND} SCENARIOS={scenario}'")
