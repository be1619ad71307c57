"""Link every page to the same page in the other language (``docs/en`` <-> ``docs/zh``).

The link is relative (``../`` per level of the page, then ``../<other>/<page>.html``), so it works
from ``file://`` and from a server. The ``lang-switch.html`` template shows it; put that
template in a theme slot such as the book theme's ``article_header_end``.
"""

from __future__ import annotations

import typing

from sphinx.application import Sphinx
from refsite import __version__
from refsite.sphinxext import add_static_path


def counterpart_url(pagename: str, other: str) -> str:
    """Relative URL from ``pagename`` to the same page in the sibling tree ``other``."""
    return "../" * pagename.count("/") + f"../{other}/{pagename}.html"


def _add_context(app: Sphinx, pagename: str, templatename: str,
                 context: dict[str, typing.Any], doctree: object) -> None:
    other: str = app.config.lang_switch_other
    if other:
        context["lang_switch_url"] = counterpart_url(pagename, other)
        context["lang_switch_label"] = app.config.lang_switch_label
        context["lang_switch_hreflang"] = app.config.lang_switch_hreflang


def setup(app: Sphinx) -> dict[str, typing.Any]:
    """Register the configuration values and the page-context hook."""
    app.add_config_value("lang_switch_other", "", "html", types=frozenset({str}),
                         description="Directory name of the other language's tree, e.g. 'zh'.")
    app.add_config_value("lang_switch_label", "", "html", types=frozenset({str}),
                         description="Text of the link, e.g. '中文'.")
    app.add_config_value("lang_switch_hreflang", "", "html", types=frozenset({str}),
                         description="Language of the linked page, e.g. 'zh-CN'.")
    app.connect("html-page-context", _add_context)
    app.connect("builder-inited", add_static_path)  # lang_switch.css
    app.add_css_file("lang_switch.css")
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
