"""A snippet is what a reader should write: no private torch name (an ``_x`` attribute, an import
from a ``torch…._module`` or of a ``_name``), unless its page is about that private detail and
says so (:data:`ALLOWED`). What the project's own checks need of torch's private state is done by
the harness (``ranktest.exitcheck.release_torch_caches``), never in a snippet."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from tests.support.paths import SNIPPETS


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


@pytest.mark.parametrize("path", sorted(SNIPPETS.rglob("*.py")), ids=lambda p: p.relative_to(SNIPPETS).as_posix())
def test_snippet_uses_public_torch_api_only(path: Path) -> None:
    rel = path.relative_to(SNIPPETS).as_posix()
    found = [(line, text) for line, text in private_names(path.read_text(encoding="utf-8"))
             if (rel, text) not in ALLOWED]
    assert not found, "\n".join(
        f"snippets/{rel}:{line}: {text} is private torch API; a reader copies it and it may break in any "
        f"release. Use public API; if the project's own checks need torch's private state cleared, do "
        f"it in the harness (ranktest.exitcheck.release_torch_caches)" for line, text in found)


@pytest.mark.parametrize("planted, expected", [
    ("mesh._pg_registry.clear()\n", "mesh._pg_registry"),
    ("from torch.distributed.tensor import _redistribute\n", "from torch.distributed.tensor import _redistribute"),
    ("from torch.distributed.tensor._api import DTensor\n", "from torch.distributed.tensor._api import DTensor"),
    ("import torch._dynamo\n", "import torch._dynamo"),
    ("x = torch._C._get_accelerator()\n", "torch._C._get_accelerator"),
])
def test_a_planted_private_name_is_found(planted: str, expected: str) -> None:
    assert expected in [text for _, text in private_names("import torch\n" + planted)]


def test_dunder_names_and_other_packages_pass_an_underscore_attribute_of_an_object_does_not() -> None:
    # The test cannot see types: an underscore attribute of any object but another package's
    # imported module counts (no snippet needs one).
    assert private_names("import os\nprint(torch.__version__, os._exit, type(x).__name__, x._y)\n"
                         "from collections import _chain\n") == [(2, "x._y")]
