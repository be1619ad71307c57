"""The Sphinx extensions of the site, listed in ``conf.py``, and their assets.

Each module is one extension with ``setup()`` last. They read snippets and measurement files
through :mod:`refsite.snippets`; they never import pytest, ``ranktest`` or torch, so the doc
build runs without torch.
"""

from pathlib import Path

#: The extensions' assets, as files of the installed package.
ASSETS = Path(__file__).resolve().parent
#: Jinja templates (``templates_path``).
TEMPLATES = ASSETS / "templates"
#: CSS, JavaScript and the favicon (added by the extensions to ``html_static_path``).
STATIC = ASSETS / "static"
#: The project's terms, kept whole by the Chinese search index (``html_search_options``).
JIEBA_USERDICT = ASSETS / "jieba_userdict.txt"
