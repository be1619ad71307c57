"""Chinese search that runs in the browser with Sphinx 9.0.

Sphinx's ``zh`` search language segments text with jieba and stems Latin words with the English
stemmer, but Sphinx 9.0 names the stemmer after the language in ``language_data.js``
(``window.Stemmer = ChineseStemmer``), a class that does not exist, so every search fails with a
``ReferenceError`` (sphinx-doc/sphinx#14229). This registers the same language with the stemmer
code inlined under its real name. Harmless where Sphinx is already fixed.
"""

from __future__ import annotations

import typing
from pathlib import Path

import sphinx.search
from sphinx.application import Sphinx
from sphinx.search.zh import SearchChinese
from refsite import __version__

_MINIFIED = Path(sphinx.search.__file__).with_name("minified-js")


class SearchChineseFixed(SearchChinese):
    """:class:`~sphinx.search.zh.SearchChinese` whose JavaScript stemmer is defined."""

    js_stemmer_rawcode = ""
    js_stemmer_code = "\n".join((
        (_MINIFIED / "base-stemmer.js").read_text(encoding="utf-8"),
        (_MINIFIED / SearchChinese.js_stemmer_rawcode).read_text(encoding="utf-8"),
        "window.Stemmer = EnglishStemmer;",
    ))


def setup(app: Sphinx) -> dict[str, typing.Any]:
    """Register the ``zh`` search language."""
    app.add_search_language(SearchChineseFixed)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
