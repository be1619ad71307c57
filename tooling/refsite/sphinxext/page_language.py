"""Which language a page is in, the one rule every extension follows, and its interface words.

The rule: Sphinx's ``language`` setting, matched on its primary subtag (``zh_CN``, ``zh-TW`` and
``zh`` are Chinese) against the Sphinx language of each tree of
:data:`refsite.languages.LANGUAGES`; any other, or none, is the language the snippets are written
in (English). ``conf.py`` sets ``language`` from the build's tag (``-t zh``), so for the site the
tag decides; a project without the tag (the tests' small Sphinx trees) sets ``language`` alone.
"""

from __future__ import annotations

import types
import typing

from refsite.interface_words import words
from refsite.languages import LANGUAGES, SNIPPET_LANGUAGE


def language_of(sphinx_language: str | None) -> str:
    """The tree name (a key of ``LANGUAGES``) whose pages Sphinx ``language`` writes."""
    primary = (sphinx_language or "").replace("-", "_").split("_")[0].lower()
    return next((name for name, lang in LANGUAGES.items() if lang.sphinx.split("_")[0] == primary),
                SNIPPET_LANGUAGE)


def page_language(holder: typing.Any) -> str:
    """The language of the pages being built: ``holder`` is anything with the build's
    ``config`` (the Sphinx application, its environment, a directive)."""
    return language_of(holder.config.language)


def page_words(holder: typing.Any) -> types.MappingProxyType[str, str]:
    """The interface words (:data:`refsite.interface_words.WORDS`) of the page's language."""
    return words(page_language(holder))
