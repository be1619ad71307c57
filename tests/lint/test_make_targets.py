"""Every ``make TARGET`` that a page, the README, a message or a docstring tells a reader to run
is a target of the Makefile (:mod:`refsite.lint.make_targets`), and a planted unknown one is
named."""

from __future__ import annotations

from pathlib import Path

from refsite.lint.make_targets import named, unknown
from tests.support.paths import REPO


def test_every_make_target_named_exists() -> None:
    assert len(named(REPO)) > 100  # the scan sees the instructions
    problems = unknown(REPO)
    assert not problems, "\n".join(problems)


def test_a_planted_unknown_target_is_named(tmp_path: Path) -> None:
    (tmp_path / "Makefile").write_text("test:\n\ttrue\n")
    (tmp_path / "README.md").write_text("Run `make test`, then `make" + " tset`.\n")  # split: not in this file
    assert unknown(tmp_path) == ["README.md:1: make tset: the Makefile has no such target"]
