"""The ``{cluster-record}`` blocks of a page's MyST source, read with the site's one page reader
(:mod:`refsite.myst_pages`)."""

from __future__ import annotations

import re
from pathlib import Path

from refsite.myst_pages import read_page

_RUN = re.compile(r"^:run:\s*(\S+)", re.M)


def record_blocks(page: Path) -> list[tuple[str, str | None]]:
    """(record name, the ``:run:`` it shows or None for all) of each block, in page order."""
    return [(fence.argument, run.group(1) if (run := _RUN.search(fence.body)) else None)
            for fence in read_page(page.read_text(encoding="utf-8")).directives("cluster-record")]
