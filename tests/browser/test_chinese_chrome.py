"""The Chinese pages' own interface is Chinese too (issue 41, item 6): the search field, the
sidebar toggles, the colour-mode switcher, the header's tooltips and the footer; a font stack that
names the common CJK fonts; search previews that start from the page's content. The English
pages show the English strings, so the check finds them where they are (it can fail)."""

from __future__ import annotations

import urllib.parse

import pytest

from tests.browser.browser_support import WebDriver, search, visit

pytestmark = pytest.mark.browser

#: The theme's English strings, as a reader meets them (text, titles, placeholders, labels).
ENGLISH = ("Search...", "Color mode", "System Settings", "Toggle primary sidebar", "Toggle secondary sidebar",
           "Print to PDF", "Copyright", "Light", "Dark")
CHROME = """
const found = [];
for (const e of document.querySelectorAll('.bd-header, .bd-header-article, .bd-footer-content, .bd-sidebar-primary .bd-search, .theme-switch-container')) {
  found.push(e.textContent);
  for (const el of e.querySelectorAll('*')) for (const a of ['title', 'placeholder', 'aria-label', 'data-bs-title'])
    if (el.getAttribute(a)) found.push(el.getAttribute(a));
}
for (const input of document.querySelectorAll('input[type=search]')) found.push(input.placeholder);
return found.join('\\n');
"""


def chrome_english(browser: WebDriver, url: str) -> list[str]:
    visit(browser, url)
    text = browser.execute_script(CHROME)
    return [word for word in ENGLISH if word in text]


def test_the_chinese_chrome_is_chinese(browser: WebDriver, base_url: str) -> None:
    assert chrome_english(browser, f"{base_url}zh/distributed/collectives.html") == []
    assert browser.execute_script("return document.querySelector('input[type=search]').placeholder") == "搜索…"
    footer = browser.execute_script("return document.querySelector('.bd-footer-content').textContent")
    assert "版权所有" in footer and "PyTorch 实测速查的贡献者" in footer and "contributors" not in footer, footer
    fonts = browser.execute_script("return getComputedStyle(document.body).fontFamily")
    assert "PingFang SC" in fonts and "Noto Sans CJK SC" in fonts, fonts
    # the English page keeps its English strings: the check sees them
    assert set(chrome_english(browser, f"{base_url}en/distributed/collectives.html")) >= {
        "Search...", "Color mode", "System Settings", "Toggle primary sidebar"}


def test_search_previews_start_from_the_content(browser: WebDriver, base_url: str) -> None:
    search(browser, f"{base_url}zh/search.html?q={urllib.parse.quote('张量')}")
    previews = browser.execute_script(
        "return [...document.querySelectorAll('#search-results ul.search li p.context')].map(p => p.textContent)")
    assert len(previews) >= 5
    assert not any(word in preview for preview in previews for word in ("跟随系统", "System Settings", "浅色")), previews


@pytest.mark.parametrize(("term", "first"), [
    ("张量", "tensors/creation.html"),       # 张量创建, before DTensor：分布式张量
    ("梯度", "training/grad_mode.html"),     # 梯度模式与线程数, before FSDP2's page
])
def test_a_chinese_term_finds_the_page_whose_title_begins_with_it(browser: WebDriver, base_url: str,
                                                                   term: str, first: str) -> None:
    found = search(browser, f"{base_url}zh/search.html?q={urllib.parse.quote(term)}")
    assert found and found[0][0].endswith(first), found[:5]
    titles = [title for _, title in found[:3]]
    assert all(term in title for title in titles[:2]), titles


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_search_fields_text_starts_after_its_magnifier(browser: WebDriver, base_url: str, lang: str) -> None:
    # The theme drew the magnifier over the first characters of the query on the search page.
    search(browser, f"{base_url}{lang}/search.html?q={urllib.parse.quote('保存检查点')}")
    gaps = browser.execute_script("""
      return [...document.querySelectorAll('form.bd-search')].filter(f => f.offsetParent).map(f => {
        const input = f.querySelector('input'), icon = f.querySelector('.fa-magnifying-glass');
        const text = input.getBoundingClientRect().left + parseFloat(getComputedStyle(input).paddingLeft);
        return Math.round(text - icon.getBoundingClientRect().right);
      });""")
    assert gaps and all(gap >= 2 for gap in gaps), gaps
