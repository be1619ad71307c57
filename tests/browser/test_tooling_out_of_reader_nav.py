"""The site's own tooling is contributors' documentation: no page of it is in either language's
search index (nor its objects), and no reader's sidebar lists it; it is still built and linked."""

from __future__ import annotations

import json
from pathlib import Path

import bs4
import pytest

pytestmark = pytest.mark.browser


def search_index(site: Path, lang: str) -> dict:
    text = (site / lang / "searchindex.js").read_text(encoding="utf-8")
    return json.loads(text.removeprefix("Search.setIndex(").removesuffix(")"))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_tooling_page_or_object_is_searched(site: Path, lang: str) -> None:
    index = search_index(site, lang)
    tooling = {n for n, d in enumerate(index["docnames"]) if d == "reference/index" or d.startswith("apidocs/")}
    assert tooling, "the tooling pages are gone from the build"
    for table in ("terms", "titleterms"):
        found = [w for w, files in index[table].items() if tooling & set(files if isinstance(files, list) else [files])]
        assert found == [], (table, found[:10])
    assert not [t for t, places in index["alltitles"].items() if tooling & {p[0] for p in places}]
    prefixes = [prefix for prefix in index["objects"] if prefix.split(".")[0] in ("ranktest", "refsite")]
    assert prefixes == [], prefixes[:5]
    assert (site / lang / "apidocs" / "ranktest" / "ranktest.html").exists()  # still built


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("page", ["index", "distributed/launch", "reference/api_index"])
def test_no_reader_sidebar_lists_the_tooling(site: Path, lang: str, page: str) -> None:
    html = bs4.BeautifulSoup((site / lang / f"{page}.html").read_text(encoding="utf-8"), "html.parser")
    nav = html.select_one("nav.bd-docs-nav") or html.select_one(".bd-sidebar-primary")
    assert nav is not None, f"{lang}/{page}: no sidebar"
    links = [a.get("href", "") for a in nav.select("a")]
    assert links and not [h for h in links if "apidocs/" in h or h.endswith("reference/index.html")], links
