"""A search fetches the pages of the results a reader can see, each page once, not the page of
every result: a common word matches dozens of pages, and their previews cost megabytes when all
are fetched at once (``refsite.sphinxext.search_ranking``). Scrolling down fetches the rest."""

from __future__ import annotations

import urllib.parse

import pytest
from selenium.webdriver.support.wait import WebDriverWait

from tests.browser.browser_support import WebDriver, check_console, screen, search

pytestmark = pytest.mark.browser

PREVIEWS = "return document.querySelectorAll('#search-results ul.search li p.context').length"
FETCHED = ("return performance.getEntriesByType('resource')"
           ".filter((e) => e.initiatorType === 'fetch').map((e) => [e.name, e.encodedBodySize])")


def _page(url: str) -> str:
    return url.split("#")[0]


@pytest.mark.parametrize(("lang", "query"), [("en", "all_reduce"), ("en", "torchrun"), ("zh", "集合通信")])
def test_a_search_fetches_only_the_previews_in_view(browser: WebDriver, base_url: str, lang: str, query: str) -> None:
    url = f"{base_url}{lang}/search.html?q={urllib.parse.quote(query)}"
    with screen(browser, 1280, 800):
        found = search(browser, url)
        WebDriverWait(browser, 20).until(lambda d: d.execute_script(PREVIEWS) > 0, f"no preview shown: {url}")
        pages = {_page(href) for href, _text in found}
        fetched = [name for name, _size in browser.execute_script(FETCHED)]
        assert len(pages) > 15, f"{query!r} should match many pages, found {len(pages)}"
        assert len(fetched) == len(set(fetched)), f"a page was fetched twice: {sorted(fetched)}"
        assert set(fetched) <= pages, f"fetched pages that are not results: {set(fetched) - pages}"
        assert len(fetched) < len(pages) / 2, (
            f"{query!r}: {len(fetched)} of {len(pages)} result pages fetched before any scrolling")
        # scrolled to the end, the last results get their previews too
        # objects show their description instead of a preview
        items = "const items = [...document.querySelectorAll('#search-results ul.search li:not(.kind-object)')];"
        browser.execute_script(items + "items[items.length - 1].scrollIntoView();")
        last = items + "return items.length > 0 && items[items.length - 1].querySelector('p.context') !== null"
        WebDriverWait(browser, 20).until(lambda d: d.execute_script(last), f"the last result has no preview: {url}")
        check_console(browser, url)
