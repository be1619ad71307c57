"""The built site in headless Chromium: both languages, the language switch, rank outputs,
download links, search, and nothing loaded from outside 127.0.0.1."""

from __future__ import annotations

import html
import re
import urllib.parse
import urllib.request
from pathlib import Path

import bs4
import pytest

from refsite import snippets
from refsite.myst_pages import embedded_snippets
from tests.browser.browser_support import (REPO, By, WebDriver, WebDriverWait, check_console, drain,
                             html_pages, in_one_row, is_local, screen, search, snippet_block, visit)
from refsite.sphinxext.rank_columns import side_by_side

pytestmark = pytest.mark.browser


def test_both_languages_have_the_same_pages(site: Path) -> None:
    en, zh = html_pages(site, "en"), html_pages(site, "zh")
    assert en == zh
    assert {"index.html", "distributed/collectives.html", "search.html"} <= en


def test_landing_page_offers_both_languages(browser: WebDriver, base_url: str) -> None:
    visit(browser, base_url)
    links = {a.get_attribute("hreflang"): a.get_attribute("href")
             for a in browser.find_elements(By.CSS_SELECTOR, "a.lang")}
    assert links == {"en": base_url + "en/index.html", "zh-CN": base_url + "zh/index.html"}


SWITCH_LINK = re.compile(r"<a\s[^>]*\bclass=\"[^\"]*\blang-switch\b[^>]*>")
HREF = re.compile(r"\bhref=\"([^\"]*)\"")


def test_every_page_links_to_its_counterpart_and_back(site: Path) -> None:
    """Each page's language switch, read from the built HTML (the walk of every page in both
    languages, test_site_phone.py, already fails on a console error of any of them)."""
    wrong = []
    for lang, other in (("en", "zh"), ("zh", "en")):
        for page in sorted(html_pages(site, lang)):
            # the <a> tags alone (parsing each whole page took 30 s for the 208 of them)
            links = [html.unescape(href.group(1)) for tag in SWITCH_LINK.findall(
                (site / lang / page).read_text(encoding="utf-8")) if (href := HREF.search(tag))]
            target = urllib.parse.urljoin(f"http://x/{lang}/{page}", links[0]) if links else None
            if len(links) != 1 or target != f"http://x/{other}/{page}":
                wrong.append(f"{lang}/{page}: {len(links)} switch link(s), to {target}")
    assert not wrong, "pages whose language switch is missing or leads elsewhere:\n" + "\n".join(wrong)


@pytest.mark.parametrize("page", ["index.html", "distributed/collectives.html"])
def test_the_language_switch_goes_both_ways_in_the_browser(browser: WebDriver, base_url: str, page: str) -> None:
    en, zh = f"{base_url}en/{page}", f"{base_url}zh/{page}"
    visit(browser, en)
    browser.find_element(By.CSS_SELECTOR, "a.lang-switch").click()
    WebDriverWait(browser, 10).until(lambda d: d.current_url == zh and d.execute_script(
        "return document.readyState") == "complete", f"en/{page} -> {zh}")
    check_console(browser, zh)  # the Chinese page, as the click loaded it
    browser.find_element(By.CSS_SELECTOR, "a.lang-switch").click()
    WebDriverWait(browser, 10).until(lambda d: d.current_url == en, f"zh/{page} -> {en}")


def test_rank_tabs_show_one_rank_at_a_time(browser: WebDriver, base_url: str) -> None:
    record = snippets.read_record(REPO / "snippets/distributed/reduce_ops.gloo-cpu-2.out.json")
    assert not side_by_side(record.ranks)  # too long for columns: one tab per rank
    visit(browser, base_url + "en/distributed/collectives.html")
    variant = snippet_block(browser, "reduce_ops.py").find_element(
        By.CSS_SELECTOR, "div.vs-variant:not([hidden])")
    panes = variant.find_elements(By.CSS_SELECTOR, "div.vs-rank")
    button = next(b for b in variant.find_elements(By.CSS_SELECTOR, "button.vs-tab-button")
                  if b.text == "rank 1")
    assert panes[0].is_displayed() and not panes[1].is_displayed()
    button.click()
    assert panes[1].is_displayed() and not panes[0].is_displayed()
    assert button.get_attribute("aria-selected") == "true"
    shown = panes[1].find_element(By.CSS_SELECTOR, "pre").text
    assert shown == record.ranks[1].rstrip("\n")


def test_short_rank_outputs_stand_side_by_side(browser: WebDriver, base_url: str) -> None:
    record = snippets.read_record(REPO / "snippets/distributed/all_reduce.gloo-cpu-2.out.json")
    assert side_by_side(record.ranks)
    with screen(browser, 1400):
        visit(browser, base_url + "en/distributed/collectives.html")
        variant = snippet_block(browser, "all_reduce.py").find_element(
            By.CSS_SELECTOR, "div.vs-variant:not([hidden])")
        ranks = variant.find_element(By.CSS_SELECTOR, "div.vs-ranks")
        panes = ranks.find_elements(By.CSS_SELECTOR, "div.vs-rank")
        switch = ranks.find_element(By.CSS_SELECTOR, "button.vs-layout-switch")
        assert switch.text == "all ranks" and switch.get_attribute("aria-pressed") == "true"
        assert [p.find_element(By.CSS_SELECTOR, "p.vs-tab-label").text for p in panes] == [
            "rank 0", "rank 1"]
        assert [p.find_element(By.CSS_SELECTOR, "pre").text for p in panes] == [
            r.rstrip("\n") for r in record.ranks]
        assert in_one_row(panes)

        switch.click()  # the reader asks for tabs
        assert switch.get_attribute("aria-pressed") == "false"
        assert panes[0].is_displayed() and not panes[1].is_displayed()
        tab = next(b for b in ranks.find_elements(By.CSS_SELECTOR, "button[role=tab]")
                   if b.text == "rank 1")
        tab.click()
        assert panes[1].is_displayed() and not panes[0].is_displayed()
        switch.click()  # and side by side again
        assert all(p.is_displayed() for p in panes) and in_one_row(panes)


def test_download_links_serve_the_snippet(browser: WebDriver, base_url: str) -> None:
    visit(browser, base_url + "en/tensors/creation.html")
    links = [a.get_attribute("href") for a in browser.find_elements(By.CSS_SELECTOR, "a.download")]
    names = [urllib.parse.urlsplit(u).path.rsplit("/", 1)[1] for u in links]
    page = (REPO / "docs/en/tensors/creation.md").read_text(encoding="utf-8")
    embedded = [path.removeprefix("tensors/") for path in embedded_snippets(page)]
    assert names == embedded and "arange.py" in names  # one link per snippet, in page order
    with urllib.request.urlopen(links[names.index("arange.py")]) as response:
        assert response.read() == (REPO / "snippets/tensors/arange.py").read_bytes()


@pytest.mark.parametrize(("lang", "query", "page"), [
    ("en", "all_reduce", "distributed/collectives"),
    ("zh", "归约", "distributed/collectives"),
    ("zh", "广播", "parallel/ddp"),
])
def test_search_finds_the_page(browser: WebDriver, base_url: str, lang: str, query: str, page: str) -> None:
    hrefs = [href for href, _text in search(browser, f"{base_url}{lang}/search.html?q={urllib.parse.quote(query)}")]
    assert any(h.split("?")[0].split("#")[0] == f"{base_url}{lang}/{page}.html" for h in hrefs), hrefs
    errors, urls = drain(browser)
    assert not errors and all(map(is_local, urls)), (errors, urls)


def test_only_loopback_data_and_blob_urls_count_as_local() -> None:
    assert all(map(is_local, ["http://127.0.0.1:8000/en/index.html", "data:,", "blob:http://127.0.0.1/x"]))
    assert not any(map(is_local, ["https://fonts.googleapis.com/css", "http://localhost:8000/",
                                  "chrome://resources/x.js", "http://127.0.0.1.example.com/"]))


START_HERE = ["tensors/creation", "training/basics", "training/autograd", "parallel/ddp", "sharded/fsdp2"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_home_page_gives_a_path_to_start_from(site: Path, lang: str) -> None:
    page = bs4.BeautifulSoup((site / lang / "index.html").read_text(encoding="utf-8"), "html.parser")
    section = page.select_one("section#home-start")
    assert section is not None, f"{lang}/index.html has no start-here section"
    links = [a["href"].split("#")[0].removesuffix(".html") for a in section.select("ol a[href]")]
    assert [p for p in START_HERE if p in links] == START_HERE, links
    assert links.index("tensors/creation") < links.index("training/basics") < links.index("parallel/ddp") \
        < links.index("sharded/fsdp2"), links


SIDEBAR_LINK_SHOWN = """
const sidebar = document.querySelector("div.bd-sidebar");
const item = [...document.querySelectorAll(".bd-docs-nav li.active")].pop();
const link = item.querySelector(":scope > a") || item;
const box = sidebar.getBoundingClientRect(), at = link.getBoundingClientRect();
return [at.top >= box.top && at.bottom <= box.bottom, link.textContent.trim()];
"""


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_page_shows_its_own_link_in_the_sidebar(browser: WebDriver, base_url: str, lang: str) -> None:
    # The theme restores the previous page's sidebar scroll position: scrolled to the bottom on
    # one page, the next page (near the top of the sidebar) must still show its own link.
    browser.set_window_size(1280, 800)
    try:
        visit(browser, f"{base_url}{lang}/distributed/launch.html")
        browser.execute_script('document.querySelector("div.bd-sidebar").scrollTop = 100000;')
        visit(browser, f"{base_url}{lang}/tensors/creation.html")
        shown, text = browser.execute_script(SIDEBAR_LINK_SHOWN)
        assert shown, f"{lang}/tensors/creation.html: its sidebar link {text!r} is scrolled out of view"
    finally:
        browser.set_window_size(1400, 1000)
