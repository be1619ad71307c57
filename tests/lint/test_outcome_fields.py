"""Results are judged by their fields, never by their messages: no code of the tooling or the
harness compares an error message (a stored result's ``error``, a report's text, the message a
timed-out run is stored with) to decide what happened. A run stopped at a limit says so in
``stopped_after_s``; the collector's outcome is one of its named values, with the variant it was
compared with in a property of its own."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.support.paths import REPO

#: Names that hold an error's text.
MESSAGE_KEYS = {"error", "message", "stderr", "report"}


def _is_message(node: ast.AST) -> bool:
    """``x["error"]``, ``x.get("error")``, ``timeout_error(...)``, ``str(exc)``."""
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        return node.slice.value in MESSAGE_KEYS
    if isinstance(node, ast.Call):
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "get" and node.args:
            return isinstance(node.args[0], ast.Constant) and node.args[0].value in MESSAGE_KEYS
        if isinstance(func, ast.Name) and func.id in ("timeout_error", "str") and node.args:
            return func.id == "timeout_error" or (isinstance(node.args[0], ast.Name) and node.args[0].id in ("exc", "error"))
    return False


def message_comparisons(path: Path) -> list[str]:
    """``file:line`` of each comparison of an error message in ``path``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Compare) and isinstance(node.ops[0], (ast.Eq, ast.NotEq)):
            if any(_is_message(side) for side in (node.left, *node.comparators)):
                found.append(f"{path.relative_to(path.parents[2]).as_posix()}:{node.lineno}")
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in ("startswith", "endswith") and _is_message(node.func.value)):
            found.append(f"{path.relative_to(path.parents[2]).as_posix()}:{node.lineno}")
    return found


def test_no_outcome_is_decided_by_an_error_message() -> None:
    found = [hit for folder in (REPO / "tooling" / "refsite", REPO / "src" / "ranktest")
             for path in sorted(folder.rglob("*.py")) for hit in message_comparisons(path)]
    assert found == [], f"these compare an error message; decide by a field instead: {found}"


def test_a_planted_comparison_is_found(tmp_path: Path) -> None:
    path = tmp_path / "a" / "b" / "run.py"
    path.parent.mkdir(parents=True)
    path.write_text('if found["error"] == timeout_error(30):\n    pass\n'
                    'if found.get("error", "").startswith("still running"):\n    pass\n'
                    'if found.get("stopped_after_s") == 30:\n    pass\n')
    assert message_comparisons(path) == ["a/b/run.py:1", "a/b/run.py:3"]
