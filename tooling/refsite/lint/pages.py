"""What the site's MyST pages embed: the ``{snippet}`` blocks, read one way for every check
(the prose check, the ledger check, the parity test)."""

from __future__ import annotations

import re
from pathlib import Path

from refsite.languages import LANGUAGES

#: A ``{snippet} PATH`` block (backtick, tilde or colon fence), PATH relative to ``snippets/``.
SNIPPET_BLOCK = re.compile(r"^(?:`{3,}|~{3,}|:{3,})\s*\{snippet\}\s+(\S+)\s*$", re.MULTILINE)


def embedded_snippets(text: str) -> list[str]:
    """The snippet paths a page's text embeds, in page order."""
    return SNIPPET_BLOCK.findall(text)


def page_embeds(docs: Path) -> dict[str, dict[str, list[str]]]:
    """For each language, each page (path under ``docs/<lang>`` without ``.md``) and the
    snippets it embeds; every page is read once."""
    return {lang: {path.relative_to(docs / lang).with_suffix("").as_posix():
                   embedded_snippets(path.read_text(encoding="utf-8"))
                   for path in sorted((docs / lang).rglob("*.md"))}
            for lang in LANGUAGES}
