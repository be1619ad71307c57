"""No flakes: every distributed snippet (torchrun ones, and those that start processes
themselves) passes SOAK_RUNS runs in a row through the harness, and SOAK_ALONE_RUNS (default:
SOAK_RUNS) copied alone and run by its ``Run:`` line. Run with ``make soak`` (SOAK_RUNS=50);
skipped when SOAK_RUNS is not set."""

from __future__ import annotations

import os

import pytest

from refsite.testing.snippet_runs import alone_problem, case_id, cpu_variants, harness_problem, run_variant
from tests.support.paths import SNIPPETS
from refsite.testing import machine

RUNS = int(os.environ.get("SOAK_RUNS", "0"))
ALONE_RUNS = int(os.environ.get("SOAK_ALONE_RUNS", RUNS))

CASES = cpu_variants(SNIPPETS, distributed_only=True)
IDS = [case_id(*case) for case in CASES]
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(RUNS < 1, reason="set SOAK_RUNS=N (make soak runs 50) to soak the snippets"),
]


@pytest.mark.parametrize("spec, variant", CASES, ids=IDS)
def test_harness_soak(snippet_server, pytestconfig, spec, variant):
    machine.require(spec.needs)
    for run in range(RUNS):
        result = run_variant(snippet_server, spec, variant, timeout=pytestconfig.getoption("snippet_timeout"))
        if problem := harness_problem(result, spec, variant, case_id(spec, variant), str(spec.path)):
            pytest.fail(f"harness run {run + 1}/{RUNS} failed:\n{problem}", pytrace=False)


@pytest.mark.parametrize("spec, variant", CASES, ids=IDS)
def test_alone_soak(pytestconfig, spec, variant):
    machine.require(spec.needs)
    for run in range(ALONE_RUNS):
        if problem := alone_problem(spec, variant, timeout=pytestconfig.getoption("snippet_timeout")):
            pytest.fail(f"copied-alone launch {run + 1}/{ALONE_RUNS} failed:\n{problem}", pytrace=False)
