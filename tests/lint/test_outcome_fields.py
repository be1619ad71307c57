"""Results are judged by their fields, never by their messages
(:mod:`refsite.lint.outcome_fields`): the tooling and the harness, and a planted comparison."""

from __future__ import annotations

from pathlib import Path

from refsite.lint.outcome_fields import check, message_comparisons
from tests.support.paths import REPO


def test_no_outcome_is_decided_by_an_error_message() -> None:
    found = check(REPO)
    assert found == [], f"these compare an error message; decide by a field instead: {found}"


def test_a_planted_comparison_is_found(tmp_path: Path) -> None:
    path = tmp_path / "a" / "b" / "run.py"
    path.parent.mkdir(parents=True)
    path.write_text('if found["error"] == timeout_error(30):\n    pass\n'
                    'if found.get("error", "").startswith("still running"):\n    pass\n'
                    'if found.get("stopped_after_s") == 30:\n    pass\n')
    assert message_comparisons(path) == ["a/b/run.py:1", "a/b/run.py:3"]
