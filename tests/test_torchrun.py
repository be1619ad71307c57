"""Each distributed snippet, copied alone into an empty directory, runs under real torchrun with
the command written in it and prints what its expected-output file records for each rank."""

from __future__ import annotations

from pathlib import Path

import pytest

import snippetspec
from harness.torchrun import run_alone

SNIPPETS = Path(__file__).resolve().parent.parent / "snippets"


def distributed_cpu_variants() -> list:
    cases = []
    for path in sorted(SNIPPETS.rglob("*.py")):
        if not snippetspec.is_snippet(path):
            continue
        spec = snippetspec.read_spec(path)
        if spec.run.startswith("torchrun"):
            cases += [pytest.param(spec, v, id=f"{path.relative_to(SNIPPETS).with_suffix('')}[{v.id}]")
                      for v in spec.variants if v.device == "cpu"]
    return cases


def check_against_record(spec: snippetspec.Spec, variant: snippetspec.Variant) -> None:
    """One torchrun launch: exit 0, no abort noise, every rank's output as recorded."""
    record = snippetspec.read_record(spec.record_path(variant))
    result = run_alone(spec, variant)
    assert result.returncode == 0, result.report()
    for rank, err in enumerate(result.stderr):
        assert "terminate called" not in err and "NOT been destroyed" not in err, result.report()
        assert err.strip() == "", f"rank {rank} wrote to stderr:\n{result.report()}"
    got = tuple(snippetspec.normalize_output(out) for out in result.stdout)
    assert got == record.ranks, result.report()


@pytest.mark.slow
@pytest.mark.parametrize("spec, variant", distributed_cpu_variants())
def test_snippet_runs_alone_under_torchrun(spec, variant):
    check_against_record(spec, variant)
