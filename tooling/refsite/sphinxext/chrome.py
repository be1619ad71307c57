"""The theme's own interface in the page's language: the search field, the sidebar toggles, the
colour-mode switcher, the footer and the header's tooltips.

Three kinds of string, three ways in:

- strings the theme passes through gettext (colour mode, footer, "Print to PDF"): message
  catalogs of the site's own (``locale/<language>/LC_MESSAGES/*.po``), compiled by
  :func:`compile_catalogs` at each build into a folder outside the sources (``conf.py`` names it
  in ``locale_dirs``, which Sphinx reads before the theme's catalogs; the book theme's catalog
  is registered here, before the theme registers its own);
- the search field's text, a theme option: set here from :mod:`refsite.interface_words`;
- the sidebar toggles' titles, written into the theme's templates: ``templates/`` overrides
  those two small templates and takes the words from the page context (``vs_words``).

The Chinese pages also get a font stack that names the common CJK fonts (``chrome.css``), and
search previews start from a page's content, not from the theme's header buttons (``chrome.js``).
"""

from __future__ import annotations

import os
import typing
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from sphinx.application import Sphinx

from refsite import __version__
from refsite.sphinxext import ASSETS, add_static_path
from refsite.sphinxext.page_language import page_words

#: The site's catalogs: ``<language>/LC_MESSAGES/<domain>.po``.
LOCALE = ASSETS / "locale"


def compile_catalogs(dest: Path) -> Path:
    """Compile every ``.po`` of :data:`LOCALE` into ``dest`` (same layout, ``.mo``); returns ``dest``."""
    for po in sorted(LOCALE.rglob("*.po")):
        target = dest / po.relative_to(LOCALE).with_suffix(".mo")
        target.parent.mkdir(parents=True, exist_ok=True)
        with po.open("rb") as source:
            catalog = read_po(source)
        partial = target.with_name(f"{target.name}.{os.getpid()}")  # both trees build at once
        with partial.open("wb") as out:
            write_mo(out, catalog)
        os.replace(partial, target)
    return dest


def _theme_options(app: Sphinx, config: typing.Any) -> None:
    words = page_words(app)
    config.html_theme_options = {**config.html_theme_options, "search_bar_text": words["chrome.search"]}


def _page_context(app: Sphinx, pagename: str, templatename: str, context: dict, doctree: object) -> None:
    context["vs_words"] = page_words(app)


def setup(app: Sphinx) -> dict[str, typing.Any]:
    """Register the book theme's catalog (before the theme's own), the theme option and the
    words the overridden templates read."""
    for catalogs in app.config.locale_dirs:
        app.add_message_catalog("booktheme", catalogs)
    app.connect("config-inited", _theme_options)
    app.connect("html-page-context", _page_context)
    app.connect("builder-inited", add_static_path)  # chrome.css
    app.add_css_file("chrome.css")
    app.add_js_file("chrome.js")
    app.setup_extension("refsite.sphinxext.theme_css")  # the theme's stylesheet, cut to what is used
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
