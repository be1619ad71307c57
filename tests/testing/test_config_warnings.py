"""Warnings at pytest's configuration time (``refsite.testing.config_warnings``): another
plugin's is shown, not fatal (as pytest-benchmark's under xdist on GPU images); the project's
own stay errors, and so does every warning a test raises."""

from __future__ import annotations

import warnings

import pytest

from refsite.testing import config_warnings

pytest_plugins = ["pytester"]

#: A third-party plugin that warns while pytest configures itself, as pytest-benchmark does
#: when pytest-xdist is active (pytest_benchmark/logger.py).
NOISY_PLUGIN = '''
import warnings
import pytest

class PytestBenchmarkWarning(pytest.PytestWarning):
    pass

@pytest.hookimpl(trylast=True)
def pytest_configure(config):
    warnings.warn(PytestBenchmarkWarning(
        "Benchmarks are automatically disabled because xdist plugin is active."))
'''

CONFTEST = 'pytest_plugins = ["refsite.testing.config_warnings"]\n'
TESTS = '''
import warnings

def test_quiet():
    pass

def test_warns():
    warnings.warn(UserWarning("a test's own warning"))
'''


@pytest.fixture
def project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    """A tiny project that makes every warning an error, beside a noisy installed plugin."""
    pytester.makeini("[pytest]\nfilterwarnings = error\n")
    pytester.makepyfile(test_demo=TESTS)
    site = pytester.mkdir("site")
    (site / "noisy_plugin.py").write_text(NOISY_PLUGIN)
    monkeypatch.setenv("PYTHONPATH", str(site))
    return pytester


def test_without_the_rule_the_noisy_plugin_aborts_the_session(project):
    # What a GPU image's pytest-benchmark did to make doctest: no test ran at all.
    result = project.runpytest_subprocess("-p", "noisy_plugin", "-p", "no:cacheprovider")
    result.stdout.fnmatch_lines(["INTERNALERROR*PytestBenchmarkWarning: Benchmarks are automatically disabled*"])
    assert "passed" not in result.stdout.str()


@pytest.mark.slow
@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["one process", "xdist"])
def test_a_plugin_warning_at_configuration_is_shown_and_the_tests_run(project, workers):
    project.makeconftest(CONFTEST)
    result = project.runpytest_subprocess("-p", "noisy_plugin", "-p", "no:cacheprovider", *workers)
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*PytestBenchmarkWarning: Benchmarks are automatically disabled*",
                                 "*FAILED*test_warns*UserWarning: a test's own warning*"])


def test_the_projects_own_warning_at_configuration_stays_an_error(project):
    project.makeconftest(CONFTEST + "import warnings\n\ndef pytest_configure(config):\n"
                         "    warnings.warn(UserWarning('the project warns while configuring'))\n")
    result = project.runpytest_subprocess("-p", "no:cacheprovider")
    result.stdout.fnmatch_lines(["INTERNALERROR*UserWarning: the project warns while configuring*"])
    assert "passed" not in result.stdout.str()


def test_a_run_that_never_starts_its_session_leaves_the_filters_as_they_were() -> None:
    class Config:  # what the two hooks use of pytest's
        stash = pytest.Stash()

    before = list(warnings.filters)
    config = Config()
    config_warnings.pytest_configure(config)
    assert warnings.filters != before  # catching: everything recorded
    config_warnings.pytest_unconfigure(config)  # --help, or an error before the session
    assert warnings.filters == before
