"""No flakes: every distributed snippet passes SOAK_RUNS runs in a row, through the harness and
under torchrun. Run with ``make soak`` (SOAK_RUNS=50); skipped when SOAK_RUNS is not set."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from snippet_runs import case_id, cpu_variants, harness_problem, run_variant, torchrun_problem

RUNS = int(os.environ.get("SOAK_RUNS", "0"))
SNIPPETS = Path(__file__).resolve().parent.parent / "snippets"
CASES = cpu_variants(SNIPPETS, torchrun_only=True)
IDS = [case_id(*case) for case in CASES]
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(RUNS < 1, reason="set SOAK_RUNS=N (make soak runs 50) to soak the snippets"),
]


@pytest.mark.parametrize("spec, variant", CASES, ids=IDS)
def test_harness_soak(snippet_server, spec, variant):
    for run in range(RUNS):
        result = run_variant(snippet_server, spec, variant)
        if problem := harness_problem(result, spec, variant, case_id(spec, variant), str(spec.path)):
            pytest.fail(f"harness run {run + 1}/{RUNS} failed:\n{problem}", pytrace=False)


@pytest.mark.parametrize("spec, variant", CASES, ids=IDS)
def test_torchrun_soak(spec, variant):
    for run in range(RUNS):
        if problem := torchrun_problem(spec, variant):
            pytest.fail(f"torchrun launch {run + 1}/{RUNS} failed:\n{problem}", pytrace=False)
