"""Results are judged by their fields, never by their messages: no code of the tooling or the
harness compares an error message (a stored result's ``error``, a report's text, the message a
timed-out run is stored with) to decide what happened. A run stopped at a limit says so in
``stopped_after_s``; the collector's outcome is one of its named values, with the variant it was
compared with in a property of its own.

``tests/lint/test_outcome_fields.py`` runs :func:`check` on the checkout and
:func:`message_comparisons` on a planted file; ``python -m refsite.lint.outcome_fields`` checks
the checkout.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

#: Names that hold an error's text.
MESSAGE_KEYS = {"error", "message", "stderr", "report"}
#: The packages held to the rule, relative to the checkout.
PACKAGES = (Path("tooling") / "refsite", Path("src") / "ranktest")


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


def check(root: Path) -> list[str]:
    """``file:line`` of each comparison of an error message in the :data:`PACKAGES` of the
    checkout at ``root``."""
    return [hit for folder in PACKAGES for path in sorted((root / folder).rglob("*.py"))
            for hit in message_comparisons(path)]


def main(argv: list[str] | None = None) -> int:
    from refsite import project
    found = check(project.root())
    print(f"these compare an error message; decide by a field instead: {found}" if found
          else "no outcome is decided by an error message")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
