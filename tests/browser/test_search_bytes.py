"""A search fetches the previews of the results a reader can see, each page's once, not the page of
every result: a common word matches dozens of pages, and their previews cost megabytes when every
whole page is fetched at once (``refsite.sphinxext.search_ranking``). A preview is the page's
small preview file, its prose alone (``refsite.sphinxext.search_previews``). Scrolling down
fetches the rest.

What a query transfers is held to 500 KB: the search index (as a static host sends it,
compressed: the test server sends it whole) and the previews fetched (as sent here, whole)."""

from __future__ import annotations

import gzip
import urllib.parse
import urllib.request

import pytest

from tests.browser.browser_support import WebDriver, WebDriverWait, check_console, screen, search

pytestmark = pytest.mark.browser

PREVIEWS = "return document.querySelectorAll('#search-results ul.search li p.context').length"
FETCHED = ("return performance.getEntriesByType('resource')"
           ".filter((e) => e.initiatorType === 'fetch').map((e) => [e.name, e.encodedBodySize])")


#: The most a query may transfer (issue 55): the index, compressed, and its previews.
QUERY_BYTES = 500_000


def _page(url: str) -> str:
    return url.split("#")[0]


def _index_bytes(base_url: str, lang: str) -> int:
    """The search index's size as a static host sends it (gzip)."""
    with urllib.request.urlopen(f"{base_url}{lang}/searchindex.js") as response:
        return len(gzip.compress(response.read()))


@pytest.mark.parametrize(("lang", "query"), [("en", "all_reduce"), ("en", "torchrun"), ("zh", "集合通信")])
def test_a_search_fetches_only_the_previews_in_view(browser: WebDriver, base_url: str, lang: str, query: str) -> None:
    url = f"{base_url}{lang}/search.html?q={urllib.parse.quote(query)}"
    with screen(browser, 1280, 800):
        found = search(browser, url)
        WebDriverWait(browser, 20).until(lambda d: d.execute_script(PREVIEWS) > 0, f"no preview shown: {url}")
        pages = {_page(href) for href, _text in found}
        root = f"{base_url}{lang}/"
        entries = browser.execute_script(FETCHED)
        assert all(name.startswith(root + "_previews/") for name, _size in entries), entries
        fetched = [root + name.removeprefix(root + "_previews/") for name, _size in entries]
        assert len(pages) > 15, f"{query!r} should match many pages, found {len(pages)}"
        assert len(fetched) == len(set(fetched)), f"a page was fetched twice: {sorted(fetched)}"
        assert set(fetched) <= pages, f"fetched previews of pages that are not results: {set(fetched) - pages}"
        previews = sum(size for _name, size in entries)
        total = previews + _index_bytes(base_url, lang)
        assert total <= QUERY_BYTES, f"{query!r}: {total} bytes ({previews} of previews, the rest the index)"
        assert len(fetched) < len(pages) / 2, (
            f"{query!r}: {len(fetched)} of {len(pages)} result pages fetched before any scrolling")
        # scrolled to the end, the last results get their previews too
        # objects show their description instead of a preview
        items = "const items = [...document.querySelectorAll('#search-results ul.search li:not(.kind-object)')];"
        browser.execute_script(items + "items[items.length - 1].scrollIntoView();")
        last = items + "return items.length > 0 && items[items.length - 1].querySelector('p.context') !== null"
        WebDriverWait(browser, 20).until(lambda d: d.execute_script(last), f"the last result has no preview: {url}")
        check_console(browser, url)
