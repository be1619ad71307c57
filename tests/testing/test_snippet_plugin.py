"""The snippet collector: one item per variant, skips with reasons, and a clear failure for every way
an expected output can be wrong (changed, stale, missing, unparsable) or a header can be bad."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

SNIPPETS = {
    "ok": '"""Run: python ok.py"""\nprint("unchanged")\n',
    "changed": '"""Run: python changed.py"""\nprint("first line")\nprint("second line")\n',
    "stale": '"""Run: python stale.py"""\nprint("same output")\n',
    "missing": '"""Run: python missing.py"""\nprint("never recorded")\n',
    "corrupt": '"""Run: python corrupt.py"""\nprint("record will be damaged")\n',
    "gpu": '"""Run: python gpu.py\nVariants: cpu, cuda\n"""\nimport os\nprint(os.environ["DEVICE"])\n',
    # mpi: a backend that no torch from PyPI is built with, CPU or CUDA build alike.
    "dist": (
        '"""Run: torchrun --nproc-per-node=2 dist.py\nVariants: gloo-cpu, mpi-cpu\n"""\n'
        "import os\nimport torch.distributed as dist\n"
        'dist.init_process_group(os.environ.get("BACKEND", "gloo"))\n'
        'print("rank", dist.get_rank(), "of", dist.get_world_size())\n'
        "dist.barrier()\n"
        "dist.destroy_process_group()\n"
    ),
}


def run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    """pytest in a subprocess, on the tiny project, with the snippet collector (installed)."""
    return pytester.runpytest_subprocess("-p", "refsite.testing.collector", "-rs", "-v", *args)


@pytest.fixture
def recorded(pytester: pytest.Pytester) -> Path:
    """A tiny project whose snippets were all recorded, then edited in every way that matters."""
    pytester.makeini("[pytest]\n")
    area = pytester.mkdir("snippets") / "area"
    area.mkdir()
    for name, text in SNIPPETS.items():
        (area / f"{name}.py").write_text(text)
    first = run(pytester, "snippets", "--write-outputs")
    first.assert_outcomes(passed=7, skipped=2)
    (area / "changed.py").write_text(SNIPPETS["changed"].replace("second line", "2nd line"))
    (area / "stale.py").write_text(SNIPPETS["stale"] + "# a comment changes the source only\n")
    (area / "missing.cpu.out.json").unlink()
    (area / "corrupt.cpu.out.json").write_text('{"format": 1, "ranks": [')
    return area


@pytest.mark.slow
def test_every_failure_names_the_file_and_the_fix(pytester, recorded):
    record = json.loads((recorded / "dist.gloo-cpu-2.out.json").read_text())
    assert [r["stdout"] for r in record["ranks"]] == [["rank 0 of 2"], ["rank 1 of 2"]]
    assert record["command"] == "torchrun --nproc-per-node=2 dist.py"

    result = run(pytester, "snippets")
    out = result.stdout.str()
    result.assert_outcomes(passed=3, failed=4, skipped=2)
    for line in ["*area/ok.py::ok?cpu? PASSED*", "*area/dist.py::dist?gloo-cpu-2? PASSED*",
                 "*area/gpu.py::gpu?cpu? PASSED*",
                 "*SKIPPED*dist.py*backend mpi is not available in this torch build*",
                 "*SKIPPED*gpu.py*needs 1 CUDA GPU(s), this machine has 0*"]:
        result.stdout.fnmatch_lines([line])
    # Changed output: a per-rank unified diff and the command that fixes it.
    assert "area/changed.py [cpu]: output changed; run 'make outputs'" in out
    assert "-second line" in out and "+2nd line" in out
    # Same output, edited source: stale.
    assert "stale.cpu.out.json: stale: stale.py changed since this output was recorded" in out
    # Missing and unparsable records name the file and the fix.
    assert "missing.cpu.out.json: expected output is missing; regenerate it with 'make outputs'" in out
    assert "corrupt.cpu.out.json: expected output does not parse" in out


@pytest.mark.slow
def test_a_bad_header_is_a_collection_error_naming_the_file(pytester):
    pytester.makeini("[pytest]\n")
    area = pytester.mkdir("snippets") / "area"
    area.mkdir()
    (area / "bad.py").write_text('"""Run: torchrun --nproc-per-node=2 bad.py\nVariants: glue-cpu\n"""\n')
    (area / "norun.py").write_text('"""An example without its command."""\n')
    result = run(pytester, "snippets")
    out = result.stdout.str()
    assert result.ret != 0
    assert "bad.py: unknown backend 'glue' in variant 'glue-cpu'; known backends: gloo" in out
    assert "norun.py: the module docstring has no 'Run:' line" in out


def test_a_failing_rank_fails_its_item_with_the_report(pytester):
    pytester.makeini("[pytest]\n")
    area = pytester.mkdir("snippets") / "area"
    area.mkdir()
    (area / "crash.py").write_text(
        '"""Run: torchrun --nproc-per-node=2 crash.py"""\n'
        "import os\n"
        'if os.environ["RANK"] == "1":\n'
        '    raise RuntimeError("rank one is broken")\n'
    )
    result = run(pytester, "snippets")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([
        "*crash.py on 2 rank(s): rank 1 failed first (exit code 1)*",
        "*RuntimeError: rank one is broken*",
    ])


@pytest.mark.slow
def test_timeouts_per_snippet_and_per_run(pytester):
    pytester.makeini("[pytest]\n")
    area = pytester.mkdir("snippets") / "area"
    area.mkdir()
    hang = 'import time\ntime.sleep(60)\n'
    (area / "own.py").write_text('"""Run: python own.py\nTimeout: 1\n"""\n' + hang)
    (area / "run_wide.py").write_text('"""Run: torchrun --nproc-per-node=2 run_wide.py"""\n' + hang)
    result = run(pytester, "snippets", "--snippet-timeout=2")
    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines(["*own.py on 1 rank(s): timed out after 1 s; rank(s) 0 still running*"])
    result.stdout.fnmatch_lines(["*run_wide.py on 2 rank(s): timed out after 2 s; rank(s) 0, 1 still running*"])
    result.stdout.fnmatch_lines(["*in <module>*"])  # the stacks of the stopped ranks


def test_a_snippet_named_on_the_command_line_is_collected_not_imported(pytester):
    pytester.makeini("[pytest]\n")
    area = pytester.mkdir("snippets") / "area"
    area.mkdir()
    (area / "dist.py").write_text(SNIPPETS["dist"])
    result = run(pytester, "snippets/area/dist.py", "--write-outputs")
    result.assert_outcomes(passed=1, skipped=1)  # importing it would fail: no RANK at import
    assert (area / "dist.gloo-cpu-2.out.json").exists()


# A CUDA variant on a CPU machine: REFSITE_ASSUME pretends the machine has GPUs; the scripts
# read DEVICE but never touch CUDA, so what is tested is the collector's choice of check.

FIRST_USE = {
    "same": '"""Run: python same.py\nVariants: cpu, cuda\nOutput: same on all devices\n"""\nprint("a result")\n',
    "own": '"""Run: python own.py\nVariants: cpu, cuda\n"""\nimport os\nprint(os.environ["DEVICE"])\n',
    "differs": ('"""Run: python differs.py\nVariants: cpu, cuda\nOutput: same on all devices\n"""\n'
                'import os\nprint(os.environ["DEVICE"])\n'),
}


@pytest.mark.slow
def test_a_cuda_variant_without_a_record_is_checked_on_first_use(pytester, monkeypatch):
    pytester.makeini("[pytest]\n")
    area = pytester.mkdir("snippets") / "area"
    area.mkdir()
    for name, text in FIRST_USE.items():
        (area / f"{name}.py").write_text(text)
    run(pytester, "snippets", "--write-outputs").assert_outcomes(passed=3, skipped=3)  # CPU records only
    monkeypatch.setenv("REFSITE_ASSUME", "gpus=8")
    result = run(pytester, "snippets", "--junitxml=junit.xml")
    result.assert_outcomes(passed=5, failed=1)
    out = result.stdout.str()
    # Compared with the CPU record: passes when equal, fails with a diff naming that record.
    assert "area/differs.py [cuda]: output changed" in out and "-cpu" in out and "+cuda" in out
    assert "rank 0 expected (differs.cpu.out.json)" in out
    result.stdout.fnmatch_lines(["*snippet outcomes*", "*3  verified against its own record",
                                 "*1  verified against the CPU record", "*1  ran clean, not recorded yet",
                                 "*0  skipped", "*1  failed",
                                 "*ran clean, not recorded yet (exit 0, nothing on stderr*",
                                 "*snippets/area/own.py::own?cuda?"])
    junit = (pytester.path / "junit.xml").read_text()
    assert 'name="outcome" value="verified against the CPU record"' in junit
    assert 'name="compared_with" value="cpu"' in junit  # a field of its own, not inside the outcome
    assert 'value="ran clean, not recorded yet"' in junit
    # Once recorded, the CUDA variants are held to their own records.
    run(pytester, "snippets", "--write-outputs", "-k", "same or own").assert_outcomes(passed=4)
    again = run(pytester, "snippets", "-k", "same or own")
    again.stdout.fnmatch_lines(["*4  verified against its own record", "*0  ran clean, not recorded yet"])


def test_records_of_a_device_independent_snippet_are_held_to_each_other(tmp_path):
    from refsite.testing.snippet_runs import device_record_problems
    from refsite import snippets
    from tests.support.records import TEST_GPU

    area = tmp_path / "area"
    area.mkdir()
    path = area / "same.py"
    path.write_text(FIRST_USE["same"])
    spec = snippets.read_spec(path)
    cpu, cuda = spec.variants
    for variant, printed in ((cpu, "a result\n"), (cuda, "a result\n")):
        gpu = None if variant is cpu else TEST_GPU
        snippets.write_record(spec.record_path(variant),
                                 snippets.Record.from_run(spec, variant, "area/same.py", "2.13.0", (printed,), gpu))
    assert device_record_problems(tmp_path) == []
    snippets.write_record(spec.record_path(cuda),
                             snippets.Record.from_run(spec, cuda, "area/same.py", "2.13.0", ("other\n",), TEST_GPU))
    [problem] = device_record_problems(tmp_path)
    assert "same.cuda.out.json: 'Output: same on all devices', but it differs from the cpu record" in problem


PTRACE_SNIPPET = '"""Run: python tracer.py\nNeeds: ptrace\n"""\nprint("traced")\n'


@pytest.mark.parametrize(("ci", "outcome"), [("", "skipped"), ("true", "failed")])
def test_a_snippet_needing_ptrace_skips_where_it_is_refused_and_fails_under_ci(pytester, monkeypatch, ci, outcome):
    area = pytester.path / "snippets" / "area"
    area.mkdir(parents=True)
    (area / "tracer.py").write_text(PTRACE_SNIPPET)
    monkeypatch.setenv("REFSITE_ASSUME", "ptrace=no")
    monkeypatch.setenv("CI", ci)
    result = run(pytester, "snippets")
    result.assert_outcomes(**{outcome: 1})
    result.stdout.fnmatch_lines(["*needs ptrace rights to trace another process; this machine refuses them*"])
    if ci:
        result.stdout.fnmatch_lines(["*CI is set, so this check must run here, not skip*"])
