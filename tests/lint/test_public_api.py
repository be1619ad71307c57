"""A snippet uses public torch API only (:mod:`refsite.lint.public_api`): every snippet, and
planted private names found."""

from __future__ import annotations

from pathlib import Path

import pytest

from refsite.lint.public_api import check_snippet, private_names
from tests.support.paths import SNIPPETS


@pytest.mark.parametrize("path", sorted(SNIPPETS.rglob("*.py")), ids=lambda p: p.relative_to(SNIPPETS).as_posix())
def test_snippet_uses_public_torch_api_only(path: Path) -> None:
    found = check_snippet(path, SNIPPETS)
    assert not found, "\n".join(found)


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


def test_a_planted_snippet_is_named_with_its_line(tmp_path: Path) -> None:
    (tmp_path / "area").mkdir()
    (tmp_path / "area" / "demo.py").write_text("import torch\nmesh._pg_registry.clear()\n")
    found = check_snippet(tmp_path / "area" / "demo.py", tmp_path)
    assert len(found) == 1 and found[0].startswith("snippets/area/demo.py:2: mesh._pg_registry is private torch API"), found
