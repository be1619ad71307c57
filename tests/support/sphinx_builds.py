"""Reading what a Sphinx test application built: its HTML and its warnings."""

from __future__ import annotations

import re

import bs4
from sphinx.testing.util import SphinxTestApp
from sphinx.util.console import strip_escape_sequences


def html(app: SphinxTestApp, page: str = "index") -> bs4.BeautifulSoup:
    return bs4.BeautifulSoup((app.outdir / f"{page}.html").read_text(encoding="utf-8"), "html.parser")


def warnings(app: SphinxTestApp) -> list[str]:
    """The build's warnings, one string each."""
    text = strip_escape_sequences(app.warning.getvalue())
    return [w for w in re.split(r"\n(?=\S)", text) if "WARNING" in w]
