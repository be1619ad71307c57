"""What the site's MyST pages embed: the ``{snippet}`` blocks, as the page reader
(:mod:`refsite.myst_pages`) finds them, for every check (the prose check, the ledger check, the
parity test)."""

from __future__ import annotations

from pathlib import Path

from refsite.languages import LANGUAGES
from refsite.myst_pages import read_page


def embedded_snippets(text: str) -> list[str]:
    """The snippet paths (relative to ``snippets/``) a page's text embeds, in page order."""
    return [fence.argument for fence in read_page(text).directives("snippet")]


def page_embeds(docs: Path) -> dict[str, dict[str, list[str]]]:
    """For each language, each page (path under ``docs/<lang>`` without ``.md``) and the
    snippets it embeds; every page is read once."""
    return {lang: {path.relative_to(docs / lang).with_suffix("").as_posix():
                   embedded_snippets(path.read_text(encoding="utf-8"))
                   for path in sorted((docs / lang).rglob("*.md"))}
            for lang in LANGUAGES}
