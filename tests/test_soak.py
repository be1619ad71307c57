"""No flakes: every distributed snippet passes SOAK_RUNS runs in a row, through the harness and
under torchrun. Run with ``make soak`` (SOAK_RUNS=50); skipped when SOAK_RUNS is not set."""

from __future__ import annotations

import os

import pytest

import snippetspec
from harness import Forkserver
from test_torchrun import check_against_record, distributed_cpu_variants

RUNS = int(os.environ.get("SOAK_RUNS", "0"))
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(RUNS < 1, reason="set SOAK_RUNS=N (make soak runs 50) to soak the snippets"),
]


@pytest.fixture(scope="module")
def server():
    with Forkserver() as server:
        yield server


@pytest.mark.parametrize("spec, variant", distributed_cpu_variants())
def test_harness_soak(server, spec, variant):
    record = snippetspec.read_record(spec.record_path(variant))
    for run in range(RUNS):
        result = server.run(spec.path, variant.world_size, env=variant.env, distributed=True,
                            timeout=spec.timeout or 60)
        assert result.ok, f"run {run + 1}/{RUNS} failed:\n{result.report()}"
        assert not any(r.stderr for r in result.ranks), f"run {run + 1}: stderr\n{result.report()}"
        got = tuple(snippetspec.normalize_output(r.stdout) for r in result.ranks)
        assert got == record.ranks, f"run {run + 1}/{RUNS}: output differs\n{result.report()}"


@pytest.mark.parametrize("spec, variant", distributed_cpu_variants())
def test_torchrun_soak(spec, variant):
    for run in range(RUNS):
        try:
            check_against_record(spec, variant)
        except AssertionError as exc:
            pytest.fail(f"torchrun launch {run + 1}/{RUNS} failed:\n{exc}")
