"""Sphinx configuration shared by both languages: ``sphinx-build -c . -t en docs/en OUT``.

The language is chosen by a Sphinx tag naming its tree (``-t en`` or ``-t zh``; ``docs/build.py``
passes it): ``en`` gives ``language = "en"``, ``zh`` gives ``language = "zh_CN"`` (localized theme
strings, and a search index segmented by jieba). The extensions come from the site's own package
(``refsite``, in ``tooling/``, installed into ``.venv`` by ``make``).
"""

from __future__ import annotations

from pathlib import Path

from sphinx.errors import ConfigError

from refsite import project as project_pin
from refsite.languages import LANGUAGES
from refsite.sphinxext import JIEBA_USERDICT, STATIC, TEMPLATES
from refsite.sphinxext.chrome import compile_catalogs
from refsite.sphinxext.verified_snippets import COPYBUTTON_SELECTOR

ROOT = Path(__file__).resolve().parent

_chosen = [name for name in LANGUAGES if tags.has(name)]  # noqa: F821 - `tags` is given by Sphinx
if len(_chosen) != 1:
    raise ConfigError(f"conf.py: choose exactly one language with a tag, -t {' or -t '.join(LANGUAGES)} "
                      f"(docs/build.py passes it); got {_chosen or 'none'}")
TREE = _chosen[0]
OTHER = next(name for name in LANGUAGES if name != TREE)
LANG = LANGUAGES[TREE]

project = LANG.project
author = LANG.authors
copyright = author
language = LANG.sphinx
html_title = LANG.project

extensions = [
    "myst_parser",
    "autodoc2",
    "sphinx_copybutton",
    "refsite.sphinxext.verified_snippets",
    "refsite.sphinxext.gpu_variants",
    "refsite.sphinxext.api_entries",
    "refsite.sphinxext.tooling_index",
    "refsite.sphinxext.record_changes",
    "refsite.sphinxext.recorded_quotes",
    "refsite.sphinxext.cluster_record",
    "refsite.sphinxext.compat_roles",
    "refsite.sphinxext.lang_switch",
    "refsite.sphinxext.search_ranking",
    "refsite.sphinxext.search_previews",
    "refsite.sphinxext.zh_search",
    "refsite.sphinxext.chrome",
]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
exclude_patterns = ["_build"]
templates_path = [str(TEMPLATES)]
nitpicky = True
nitpick_ignore_regex = [
    # The standard library and third-party types named in annotations: no inventories offline.
    (r"py:.*", r"(pathlib|collections|typing|subprocess|os|io|re|dataclasses|types)(\..*)?"),
    (r"py:.*", r"(docutils|sphinx|torch|pytest|_pytest)(\..*)?"),
]

# The theme's own strings in the page's language: the site's catalogs, compiled outside the
# sources (Sphinx reads locale_dirs before the theme's catalogs; refsite.sphinxext.chrome).
locale_dirs = [str(compile_catalogs(ROOT / "_build" / "locale"))]

# MyST
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 0

# The snippets and their recorded outputs.
verified_snippets_root = str(ROOT / "snippets")
verified_snippets_pin = project_pin.pinned_torch(ROOT)  # every CPU record must name it
copybutton_selector = COPYBUTTON_SELECTOR

# The other language, linked from every page.
lang_switch_other = OTHER
lang_switch_label = LANGUAGES[OTHER].switch_label
lang_switch_hreflang = LANGUAGES[OTHER].tag

# API reference, rendered from the source without importing it.
autodoc2_packages = [
    {"path": "../../src/ranktest", "module": "ranktest"},
    {"path": "../../tooling/refsite/snippets", "module": "refsite.snippets"},
    {"path": "../../tooling/refsite/measurements", "module": "refsite.measurements"},
    {"path": "../../tooling/refsite/sphinxext/verified_snippets.py", "module": "refsite.sphinxext.verified_snippets"},
]
autodoc2_module_all_regexes = [r"ranktest"]  # the package API is what its __all__ lists
autodoc2_skip_module_regexes = [r"ranktest\.(?!pytest_plugin).*"]  # internals, but the plugin
autodoc2_output_dir = "apidocs"
autodoc2_index_template = None  # the reference page links the modules itself
autodoc2_render_plugin = "rst"
autodoc2_hidden_objects = ["inherited", "dunder", "private"]

# HTML: the book theme, fully offline (no fonts, scripts or analytics from other hosts).
html_theme = "sphinx_book_theme"
html_theme_options = {
    "article_header_end": ["lang-switch.html", "article-header-buttons.html"],
    "use_download_button": True,
    "use_fullscreen_button": False,
    "home_page_in_toc": True,
    "show_navbar_depth": 2,
    "show_toc_level": 2,
    "navigation_with_keys": False,
    "navbar_persistent": [],  # the sidebar already has the search field
}
html_favicon = str(STATIC / "favicon.svg")
html_copy_source = True
html_show_sourcelink = False
# The Python module index would list the tooling's modules only (torch's are not documented
# here): only the tooling's own index is built (refsite.sphinxext.tooling_index).
html_domain_indices = ["py-toolingindex"]
if TREE == "zh":
    # Keep the project's terms (集合通信, 进程组, ...) whole in the search index.
    # The glossary: a reader who types a rendering it does not use finds the pages on its term.
    html_search_options = {"dict": str(JIEBA_USERDICT), "glossary": str(Path(__file__).parent / "docs" / "zh" / "glossary.md")}
html_context = {"default_mode": "auto"}  # follow the reader's light/dark preference
