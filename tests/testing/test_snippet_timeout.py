"""A snippet's ``Timeout:`` header governs every run of it: through the harness (the suite, the
soak, ``make compat``) and copied alone; then ``--snippet-timeout``; then the runner's default."""

from __future__ import annotations

import subprocess

import pytest

from refsite import snippets
from refsite.testing.snippet_runs import (ALONE_TIMEOUT_S, HARNESS_TIMEOUT_S, run_alone, run_variant,
                                          timeout_of)

SLOW = 'import time\ntime.sleep(2.5)\nprint("done")\n'


def snippet(tmp_path, header: str = "") -> snippets.Spec:
    path = tmp_path / "slow.py"
    path.write_text(f'"""Run: python slow.py\n{header}"""\n{SLOW}')
    return snippets.read_spec(path)


def test_the_header_comes_first_then_the_command_line_then_the_default(tmp_path):
    with_header = snippet(tmp_path, "Timeout: 7\n")
    assert timeout_of(with_header, 1, HARNESS_TIMEOUT_S) == 7
    without = snippet(tmp_path)
    assert timeout_of(without, 1, HARNESS_TIMEOUT_S) == 1
    assert timeout_of(without, None, HARNESS_TIMEOUT_S) == HARNESS_TIMEOUT_S
    assert timeout_of(without, None, ALONE_TIMEOUT_S) == ALONE_TIMEOUT_S


@pytest.mark.slow
def test_a_slow_snippet_runs_everywhere_its_header_allows(tmp_path, snippet_server):
    # A command-line timeout of 1 s, shorter than the snippet's 2.5 s: its header (10 s) wins in
    # the harness run and in the copied-alone launch alike.
    spec = snippet(tmp_path, "Timeout: 10\n")
    variant = spec.variants[0]
    assert run_variant(snippet_server, spec, variant, timeout=1).check().ranks[0].stdout == "done\n"
    assert run_alone(spec, variant, timeout=1).stdout == ("done\n",)
    # Planted: without the header, the same 1 s stops both.
    spec = snippet(tmp_path)
    assert run_variant(snippet_server, spec, variant, timeout=1).timed_out
    with pytest.raises(subprocess.TimeoutExpired):
        run_alone(spec, variant, timeout=1)
