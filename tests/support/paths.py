"""Where the project's files are, for every test: one place instead of a ``Path(__file__)``
walk in each module."""

from pathlib import Path

#: The checkout's root (``conf.py``, ``Makefile``, ``snippets/``).
REPO = Path(__file__).resolve().parents[2]
SNIPPETS = REPO / "snippets"
DOCS = REPO / "docs"
#: Sphinx test roots (``@pytest.mark.sphinx(testroot=NAME)`` finds ``test-NAME`` here).
ROOTS = REPO / "tests" / "roots"
