"""What the site's MyST pages embed: the ``{snippet}`` blocks, as the page reader
(:mod:`refsite.myst_pages`) finds them, for every check (the prose check, the ledger check, the
parity test)."""

from __future__ import annotations

from pathlib import Path

from refsite.languages import LANGUAGES
from refsite.myst_pages import embedded_snippets
from refsite.signature_pages import block_names, blocks



def page_embeds(docs: Path) -> dict[str, dict[str, list[str]]]:
    """For each language, each page (path under ``docs/<lang>`` without ``.md``) and the
    snippets it embeds; every page is read once."""
    return {lang: {path.relative_to(docs / lang).with_suffix("").as_posix():
                   embedded_snippets(path.read_text(encoding="utf-8"))
                   for path in sorted((docs / lang).rglob("*.md"))}
            for lang in LANGUAGES}


def signature_pages(docs: Path) -> dict[str, dict[str, set[str]]]:
    """For each language, each full name a ```{signature}``` block declares and the pages
    (paths without ``.md``) whose blocks declare it: where the site anchors that name."""
    found: dict[str, dict[str, set[str]]] = {lang: {} for lang in LANGUAGES}
    for lang in LANGUAGES:
        for path in sorted((docs / lang).rglob("*.md")):
            page = path.relative_to(docs / lang).with_suffix("").as_posix()
            for _line, body in blocks(path.read_text(encoding="utf-8")):
                for name in block_names(body):
                    found[lang].setdefault(name, set()).add(page)
    return found
