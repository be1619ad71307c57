"""The site's languages: one tree under ``docs/`` each, in the order they are built and reported.

The one list of them: read by ``conf.py``, the site's build (``refsite.site_builds``), the
snippet translations, the page checks and the tests; needs nothing but the standard library.
"""

from __future__ import annotations

import typing


class Language(typing.NamedTuple):
    """One language tree under ``docs/``."""

    sphinx: str  # Sphinx ``language``
    tag: str  # BCP 47 tag, for hreflang
    project: str
    switch_label: str  # how the other tree links here
    authors: str  # who wrote it, as the footer's copyright line names them


#: Tree name (``docs/<name>``, also the Sphinx tag that selects it) → language.
LANGUAGES = {
    "en": Language("en", "en", "PyTorch Verified Reference", "English", "PyTorch Verified Reference contributors"),
    "zh": Language("zh_CN", "zh-CN", "PyTorch 实测速查", "中文", "PyTorch 实测速查的贡献者"),
}
#: The language snippets are written in; the others read them through translation files.
SNIPPET_LANGUAGE = "en"
