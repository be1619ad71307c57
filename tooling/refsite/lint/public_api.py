"""A snippet is what a reader should write: no private torch name (an ``_x`` attribute, an import
from a ``torch…._module`` or of a ``_name``), unless its page is about that private detail and
says so (:data:`ALLOWED`). What the project's own checks need of torch's private state is done by
the harness (``ranktest.exitcheck.release_torch_caches``), never in a snippet.

``tests/lint/test_public_api.py`` runs :func:`check_snippet` on every snippet and
:func:`private_names` on planted sources; ``python -m refsite.lint.public_api`` checks the
checkout's snippets.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

#: (snippet relative to snippets/, the private name) -> where its page says why. Empty: no page
#: is about a private detail today.
ALLOWED: dict[tuple[str, str], str] = {}


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def private_names(source: str) -> list[tuple[int, str]]:
    """(line, text) of every private name a script uses: ``obj._x``, ``from torch.a._b import c``,
    ``import torch._x``, ``from torch.a import _b``."""
    tree = ast.parse(source)
    # Modules of other packages bound by ``import os``: their underscore names are their own
    # business (``os._exit`` is documented public API), not torch's private state.
    other_modules = {alias.asname or alias.name.split(".")[0] for node in ast.walk(tree)
                     if isinstance(node, ast.Import) for alias in node.names
                     if alias.name.split(".")[0] != "torch"}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr):
            if isinstance(node.value, ast.Name) and node.value.id in other_modules:
                continue
            found.append((node.lineno, ast.unparse(node)))
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "torch":
            parts = node.module.split(".") + [alias.name for alias in node.names]
            if any(_private(part) for part in parts):
                found.append((node.lineno, ast.unparse(node)))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "torch" and any(_private(p) for p in alias.name.split(".")):
                    found.append((node.lineno, f"import {alias.name}"))
    return found


def check_snippet(path: Path, snippets: Path) -> list[str]:
    """The private names the snippet at ``path`` (under the folder ``snippets``) uses, but those
    :data:`ALLOWED`, one finding each."""
    rel = path.relative_to(snippets).as_posix()
    found = [(line, text) for line, text in private_names(path.read_text(encoding="utf-8"))
             if (rel, text) not in ALLOWED]
    return [f"snippets/{rel}:{line}: {text} is private torch API; a reader copies it and it may break in any "
            f"release. Use public API; if the project's own checks need torch's private state cleared, do "
            f"it in the harness (ranktest.exitcheck.release_torch_caches)" for line, text in found]


def check(snippets: Path) -> list[str]:
    """Findings in every snippet under ``snippets``."""
    return [finding for path in sorted(snippets.rglob("*.py")) for finding in check_snippet(path, snippets)]


def main(argv: list[str] | None = None) -> int:
    from refsite import project
    problems = check(project.root() / "snippets")
    print("\n".join(problems) or "every snippet uses public torch API only")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
