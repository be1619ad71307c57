"""The Sphinx extensions of the site, listed in ``conf.py``, and their assets.

Each extension is one module with ``setup()`` last; the modules without one (``output_nodes``,
``rank_columns``, ``api_strings``, ``page_language``, ``localized_source``) are what they
share. They read snippets and measurement files through :mod:`refsite.snippets`; they never
import pytest, ``ranktest`` or torch, so the doc build runs without torch. They all say a page's
language by one rule (:mod:`refsite.sphinxext.page_language`).
"""

import typing
from pathlib import Path

#: The extensions' assets, as files of the installed package.
ASSETS = Path(__file__).resolve().parent
#: Jinja templates (``templates_path``).
TEMPLATES = ASSETS / "templates"
#: CSS, JavaScript and the favicon (added by the extensions to ``html_static_path``).
STATIC = ASSETS / "static"
#: The project's terms, kept whole by the Chinese search index (``html_search_options``).
JIEBA_USERDICT = ASSETS / "jieba_userdict.txt"


def add_static_path(app: typing.Any) -> None:
    """``builder-inited``: put :data:`STATIC` on ``html_static_path`` (once, whichever extension
    asks first) so that the CSS and JavaScript the extensions add are copied."""
    if str(STATIC) not in app.config.html_static_path:
        app.config.html_static_path.append(str(STATIC))
