"""The import rules between the worlds of ``refsite`` and ``ranktest``
(:mod:`refsite.lint.import_rules`), on the real packages and on planted imports."""

from __future__ import annotations

import pytest

from refsite.lint import import_rules
from tests.support.paths import REPO

PACKAGES = {"refsite": REPO / "tooling" / "refsite", "ranktest": REPO / "src" / "ranktest"}


@pytest.mark.parametrize("package", list(PACKAGES))
def test_every_module_keeps_the_rules(package: str) -> None:
    problems = import_rules.check_package(PACKAGES[package], package)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(("module", "source", "message"), [
    ("refsite.sphinxext.new", "import pytest\n", "refsite.sphinxext.new (sphinxext) imports pytest; sphinxext may import only"),
    ("refsite.sphinxext.new", "from ranktest import Forkserver\n", "imports ranktest (ranktest)"),
    ("refsite.sphinxext.new", "import torch\n", "(sphinxext) imports torch;"),
    ("refsite.sphinxext.new", "from refsite.testing import snippet_runs\n", "imports refsite.testing (testing)"),
    ("refsite.snippets.new", "import sphinx\n", "(snippets) imports sphinx;"),
    ("refsite.snippets.new", "from refsite import lint\n", "imports refsite.lint (lint)"),
    ("refsite.testing.new", "def f():\n    from sphinx.util import logging\n", "new:2: refsite.testing.new (testing) imports sphinx.util"),
    ("refsite.lint.new", "from ..sphinxext import compat_notes\n", "imports refsite.sphinxext (sphinxext)"),
    ("ranktest.new", "from refsite import snippets\n", "ranktest.new (ranktest) imports refsite"),
    ("refsite.other.new", "import json\n", "belongs to no world"),
    ("refsite.testing.new", "from ranktest._server import main\n", "a private module of ranktest (_server)"),
    ("refsite.testing.new", "from ranktest import _procs\n", "imports ranktest._procs, a private module"),
])
def test_a_planted_forbidden_import_is_named(module: str, source: str, message: str) -> None:
    problems = import_rules.problems(module, source, module.replace(".", "/"))
    assert any(message in p for p in problems), problems


def test_allowed_imports_pass() -> None:
    assert import_rules.problems("refsite.sphinxext.new", "import json\nfrom docutils import nodes\n"
                                 "from refsite.snippets import read_spec\nfrom refsite.languages import LANGUAGES\n",
                                 "x") == []
    assert import_rules.problems("ranktest.client", "from ranktest._rank import output_file\n", "x") == []
    assert import_rules.problems("refsite.testing.new", "import pytest\nfrom ranktest import Forkserver\n", "x") == []


def test_only_the_projects_own_top_level_names_are_installed() -> None:
    """The tooling installs one top-level package: no stray modules beside it."""
    import importlib.metadata

    for dist, expected in (("refsite", {"refsite"}), ("ranktest", {"ranktest"})):
        files = importlib.metadata.distribution(dist).files or []
        tops = {f.parts[0].removesuffix(".py") for f in files
                if not f.parts[0].endswith((".dist-info", ".pth")) and not f.parts[0].startswith(("__editable__", "__pycache__"))}
        assert tops <= expected, f"{dist} installs {sorted(tops - expected)} besides {sorted(expected)}"


@pytest.mark.parametrize("rel", list(import_rules.STATED_IN))
def test_the_architecture_is_stated_as_the_rules_say(rel: str) -> None:
    marker = import_rules.STATED_IN[rel]
    assert import_rules.stated((REPO / rel).read_text(encoding="utf-8"), marker) == import_rules.architecture(), (
        f"{rel} states other worlds than refsite.lint.import_rules.WORLDS: "
        f"run python -m refsite.lint.import_rules --write")


def test_a_stale_statement_of_the_architecture_is_found() -> None:
    marker = import_rules.STATED_IN["README.md"]
    text = "\n".join(["intro", marker.format(import_rules.BEGIN), "- four worlds", marker.format(import_rules.END), ""])
    assert import_rules.stated(text, marker) == ["- four worlds"] != import_rules.architecture()
    assert import_rules.stated(import_rules.restate(text, marker), marker) == import_rules.architecture()
    assert import_rules.stated("no markers", marker) is None
