"""The theme's stylesheet cut to the rules the site can use (refsite.sphinxext.theme_css) styles
every element exactly as the whole stylesheet does: on pages and states that exercise the
theme (both languages, laptop and phone, dark mode, the open drawer, the colour-mode menu, search
results), each element's computed style, and its ``::before`` and ``::after`` (where the icons
are drawn), is compared with the whole theme stylesheet swapped in. Transitions are off, so the
two measurements see finished styles. A planted cut (the rule of one icon removed) is seen."""

from __future__ import annotations

import importlib.resources

import pytest

from refsite.sphinxext.theme_css import THEME_CSS
from tests.browser.browser_support import WebDriver, screen, search, visit

pytestmark = pytest.mark.browser

#: The theme's own stylesheet, as the theme package ships it.
FULL = (importlib.resources.files("pydata_sphinx_theme") / "theme" / "pydata_sphinx_theme" / "static"
        / THEME_CSS.relative_to("_static")).read_text(
    encoding="utf-8")

#: The properties compared: what places, sizes, colours, draws and hides an element.
PROPERTIES = (
    "display position float left top right bottom width height margin-top margin-right margin-bottom "
    "margin-left padding-top padding-right padding-bottom padding-left border-top-width border-right-width "
    "border-bottom-width border-left-width border-top-color border-left-color border-top-left-radius color "
    "background-color background-image box-shadow font-family font-size font-weight font-style line-height "
    "text-align text-decoration-line text-transform white-space overflow-x overflow-y visibility opacity "
    "z-index flex-direction flex-wrap justify-content align-items row-gap column-gap grid-template-columns "
    "transform content list-style-type vertical-align cursor outline-style").split()
#: Every element's computed style (and its ::before and ::after), as one string each.
STYLES = """
const props = arguments[0];
const out = [];
for (const e of document.querySelectorAll('body *')) {
  const parts = [];
  for (const pseudo of [null, '::before', '::after']) {
    const cs = getComputedStyle(e, pseudo);
    if (pseudo && cs.content === 'none') continue;
    for (const p of props) parts.push(cs.getPropertyValue(p));
  }
  out.push(parts.join(';'));
}
return out;
"""
STILL = "const s = document.createElement('style'); s.textContent = '*, *::before, *::after { transition: none !important; animation: none !important; }'; document.head.appendChild(s);"
#: Replace the page's theme stylesheet (the served link, or an earlier swap) by ``arguments[0]``,
#: its relative URLs made absolute. Both measurements are taken on swapped text, so that only the
#: text differs.
SWAP = """
const old = document.querySelector('link[href*="pydata-sphinx-theme.css"], style#vs-swapped-theme');
const base = new URL('../', old.href || old.dataset.href).href;
const style = document.createElement('style');
style.id = 'vs-swapped-theme';
style.dataset.href = old.href || old.dataset.href;
style.textContent = arguments[0].replaceAll('url(../', 'url(' + base);
old.replaceWith(style);
"""

#: (page, width, what to do first) — the states that use the most of the theme.
CASES = [
    ("en/distributed/collectives.html", 1280, ""),
    ("zh/distributed/collectives.html", 390, "document.querySelector('button.primary-toggle').click()"),
    ("en/parallel/ddp.html", 1280, "document.documentElement.dataset.theme = 'dark';"
                                   "document.querySelector('.theme-switch-button').click()"),
    ("zh/reference/releases.html", 390, ""),
    ("zh/search.html?q=%E5%BC%A0%E9%87%8F", 1280, ""),
    ("en/apidocs/ranktest/ranktest.html", 1280, ""),
]


def _differences(browser: WebDriver, css: str, other: str) -> list[int]:
    """Indices of the elements styled otherwise under ``other`` than under ``css``."""
    browser.execute_script(SWAP, css)
    before = browser.execute_script(STYLES, PROPERTIES)
    browser.execute_script(SWAP, other)
    after = browser.execute_script(STYLES, PROPERTIES)
    assert len(before) == len(after)
    return [i for i, (a, b) in enumerate(zip(before, after)) if a != b]


@pytest.mark.parametrize(("page", "width", "first"), CASES)
def test_the_cut_stylesheet_styles_every_element_as_the_whole_one(browser: WebDriver, base_url: str, site,
                                                                    page: str, width: int, first: str) -> None:
    with screen(browser, width):
        if "search.html" in page:
            assert search(browser, f"{base_url}{page}"), "the search found nothing"  # every result drawn
        else:
            visit(browser, f"{base_url}{page}")
        browser.execute_script(STILL)
        if first:
            browser.execute_script(first)
        served = (site / page.split("/")[0] / THEME_CSS).read_text(encoding="utf-8")
        assert len(served) < len(FULL) / 2, "the served stylesheet is the cut one"
        different = _differences(browser, served, FULL)
        assert different == [], f"{len(different)} elements styled otherwise than by the whole stylesheet"


def test_a_planted_cut_is_seen(browser: WebDriver, base_url: str) -> None:
    # The whole stylesheet less the rule that draws the search icon: the icon's element differs.
    planted = FULL.replace(".fa-magnifying-glass", ".fa-planted-away")
    assert planted != FULL
    visit(browser, f"{base_url}en/index.html")
    browser.execute_script(STILL)
    assert _differences(browser, FULL, planted)


def test_every_icon_a_page_names_is_in_the_cut_icon_font(site) -> None:
    import re

    from fontTools.ttLib import TTFont

    from refsite.sphinxext.theme_css import ICON_FONT

    drawn = {name: int(code, 16) for selectors, code in re.findall(r'([^{}]+)\{--fa:"\\([0-9a-f]{4})"', FULL)
             for name in re.findall(r'\.fa-([a-z0-9-]+)', selectors)}
    for lang in ("en", "zh"):
        named = set()
        for page in (site / lang).rglob("*.html"):
            named.update(re.findall(r'class="[^"]*\bfa-([a-z0-9-]+)', page.read_text(encoding="utf-8")))
        icons = {drawn[name] for name in named if name in drawn}
        assert len(icons) >= 10, sorted(named - set(drawn))
        cmap = TTFont(site / lang / ICON_FONT).getBestCmap()
        assert icons <= set(cmap), [hex(c) for c in sorted(icons - set(cmap))]
        assert len(cmap) < 100  # cut: the whole font has about 1,400
