"""A second check that passed is not repeated while its inputs stay the same, and runs again
as soon as one changes; a failure is never remembered; without ``--reuse-passed`` everything runs."""

from __future__ import annotations

from pathlib import Path

import pytest

from refsite.testing import passed_checks

pytest_plugins = ["pytester"]


class DictStore(dict):
    """pytest's cache, in memory."""

    def set(self, key, value):
        self[key] = value


def test_a_pass_is_reused_only_with_the_same_inputs(tmp_path: Path) -> None:
    snippet, record = tmp_path / "s.py", tmp_path / "s.cpu.out.json"
    snippet.write_text("print(1)\n")
    record.write_text("{}")
    checks = passed_checks.PassedChecks(DictStore(), "env-1", reuse=True)
    key = checks.key("check", snippet, record)
    assert not checks.passed_before("check", key)
    checks.remember("check", key)
    assert checks.passed_before("check", checks.key("check", snippet, record))
    assert not checks.passed_before("another check", checks.key("another check", snippet, record))

    snippet.write_text("print(2)\n")
    assert not checks.passed_before("check", checks.key("check", snippet, record))
    snippet.write_text("print(1)\n")
    record.write_text('{"changed": true}')
    assert not checks.passed_before("check", checks.key("check", snippet, record))
    record.unlink()
    assert not checks.passed_before("check", checks.key("check", snippet, record))
    record.write_text("{}")
    other_environment = passed_checks.PassedChecks(checks.store, "env-2", reuse=True)
    assert not other_environment.passed_before("check", other_environment.key("check", snippet, record))
    not_reusing = passed_checks.PassedChecks(checks.store, "env-1", reuse=False)
    assert not not_reusing.passed_before("check", key)


def test_the_environment_digest_follows_versions_sources_and_variables(monkeypatch) -> None:
    first = passed_checks.environment_digest()
    assert passed_checks.environment_digest() == first
    monkeypatch.setenv("TORCH_DISTRIBUTED_DEBUG", "DETAIL")
    assert passed_checks.environment_digest() != first
    monkeypatch.delenv("TORCH_DISTRIBUTED_DEBUG")
    monkeypatch.setenv("UNRELATED_VARIABLE", "1")
    assert passed_checks.environment_digest() == first
    monkeypatch.setattr(passed_checks.sys, "version", "3.99.0")
    assert passed_checks.environment_digest() != first


CHECKED = '''
from pathlib import Path

def test_input_is_good(snippet_checks):
    with snippet_checks.unless_passed("demo", Path("input.txt")):
        assert Path("input.txt").read_text() == "good"
'''


@pytest.mark.slow
def test_through_pytest_failures_are_never_reused(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_demo=CHECKED)
    run = lambda *args: pytester.runpytest_subprocess("-p", "refsite.testing.collector", "-rs", *args)  # noqa: E731
    pytester.path.joinpath("input.txt").write_text("bad")
    run("--reuse-passed").assert_outcomes(failed=1)
    run("--reuse-passed").assert_outcomes(failed=1)
    pytester.path.joinpath("input.txt").write_text("good")
    run().assert_outcomes(passed=1)  # a plain run remembers its passes too
    skipped = run("--reuse-passed")
    skipped.assert_outcomes(skipped=1)
    skipped.stdout.fnmatch_lines(["SKIPPED*test_demo.py*passed before with exactly these inputs*"])
    run().assert_outcomes(passed=1)  # without --reuse-passed everything runs
    pytester.path.joinpath("input.txt").write_text("bad")
    run("--reuse-passed").assert_outcomes(failed=1)


SLOW_SNIPPET = '''"""Run: python launcher.py"""
import subprocess
import sys
print(subprocess.run([sys.executable, "-c", "print(6 * 7)"], capture_output=True, text=True).stdout, end="")
'''


@pytest.mark.slow
def test_a_snippet_that_starts_processes_is_reused_and_counted(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\n")
    area = pytester.mkdir("snippets") / "area"
    area.mkdir()
    (area / "launcher.py").write_text(SLOW_SNIPPET)
    run = lambda *args: pytester.runpytest_subprocess("-p", "refsite.testing.collector", "-rs", "snippets", *args)  # noqa: E731
    run("--write-outputs").assert_outcomes(passed=1)
    run("--reuse-passed").assert_outcomes(passed=1)
    reused = run("--reuse-passed")
    reused.assert_outcomes(skipped=1)
    reused.stdout.fnmatch_lines(["*1  passed before with the same inputs, not run again", "*0  skipped"])
    (area / "launcher.cpu.out.json").write_text((area / "launcher.cpu.out.json").read_text().replace("42", "41"))
    run("--reuse-passed").assert_outcomes(failed=1)  # the record changed: it runs, and differs
