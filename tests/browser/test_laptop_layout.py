"""The site at a laptop's 1280 x 800, the width readers most often have (issue 41): two ranks'
outputs side by side, code blocks that fit (signatures wrap), the releases tables with their
header and newest releases in view, and pages that load what they use only. Each check is a
script measured in the DOM, and each is shown to fail on a planted regression (a narrowed
article, code that may not wrap, an extra megabyte)."""

from __future__ import annotations

import pytest

from refsite.languages import LANGUAGES
from tests.browser.browser_support import WebDriver, screen, screenshot, visit

pytestmark = pytest.mark.browser

LAPTOP = 1280
#: Pages with many code blocks and two-rank outputs.
PAGES = ("distributed/collectives.html", "sharded/fsdp2.html")
#: The most of a page's code blocks that may scroll sideways at 1280 px: sources with lines over
#: 93 characters and outputs that print wide lines (before: 32 of 71 on collectives, 44 of 66 on
#: the Chinese fsdp2 page).
CLIPPED_SHARE = 0.25
#: What distributed/collectives may load, uncompressed (issue 41's aim): its HTML (about 270 KB:
#: 15 examples, 30 outputs), the theme's stylesheet cut to the rules the site uses (about 105 KB of
#: 376 KB) and its icon font to the icons it draws (2 KB of 115 KB) (refsite.sphinxext.theme_css),
#: the scripts (about 190 KB, Bootstrap's 81 KB among them). Measured: 585 KB (en), 592 KB (zh).
#: Before: 2.9 MB (1.5 MB of fontawesome.js, 390 KB of search index), then 0.93 MB.
BYTES_BUDGET = 700_000

#: A planted oversized page: the theme's 1.5 MB icon script loaded back into it.
ICON_SCRIPT = """
const done = arguments[arguments.length - 1];
const s = document.createElement('script');
s.src = '../_static/scripts/fontawesome.js'; s.onload = s.onerror = () => done();
document.head.appendChild(s);"""
#: Rank blocks of two ranks whose panels do not share a row, and their lines cut off.
STACKED = """
const out = [];
for (const block of document.querySelectorAll('.vs-ranks-columns.vs-ranks-2')) {
  if (!block.offsetParent || block.classList.contains('vs-as-tabs')) continue;
  const panels = [...block.querySelectorAll(':scope > .vs-tab-panel')].filter(p => !p.hidden);
  const tops = panels.map(p => Math.round(p.getBoundingClientRect().top));
  const cut = [...block.querySelectorAll('pre')].filter(p => p.scrollWidth > p.clientWidth + 1).length;
  if (new Set(tops).size !== 1 || cut) out.push(`${panels.length} panels at ${tops}, ${cut} cut`);
}
return [document.querySelectorAll('.vs-ranks-columns.vs-ranks-2').length, out];
"""
#: Code blocks shown, those that scroll sideways, and clipped signatures.
CLIPPED = """
const pres = [...document.querySelectorAll('.bd-article pre')].filter(p => p.offsetParent);
const wide = pres.filter(p => p.scrollWidth > p.clientWidth + 1);
return [pres.length, wide.length, wide.filter(p => p.closest('.vs-signature')).length];
"""
#: Bytes the page loaded: the document and every resource, uncompressed.
LOADED = """
const entries = [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')];
return entries.reduce((sum, e) => sum + (e.decodedBodySize || 0), 0);
"""


def narrowed(browser: WebDriver) -> None:
    """A planted regression: the article 600 px wide, code not allowed to wrap."""
    browser.execute_script("""
      const style = document.createElement('style');
      style.textContent = '.bd-article-container { max-width: 600px !important; } pre { white-space: pre !important; }';
      document.head.appendChild(style);""")


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_two_ranks_share_a_row_on_a_laptop(browser: WebDriver, base_url: str, lang: str) -> None:
    with screen(browser, LAPTOP):
        visit(browser, f"{base_url}{lang}/distributed/collectives.html")
        screenshot(browser, f"{lang}-collectives-1280-top")
        blocks, stacked = browser.execute_script(STACKED)
        assert blocks >= 5 and stacked == [], stacked
        narrowed(browser)
        assert len(browser.execute_script(STACKED)[1]) == blocks  # the planted regression is seen


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_code_blocks_fit_a_laptop(browser: WebDriver, base_url: str, lang: str, page: str) -> None:
    with screen(browser, LAPTOP):
        visit(browser, f"{base_url}{lang}/{page}")
        shown, wide, signatures = browser.execute_script(CLIPPED)
        assert shown > 40 and wide <= CLIPPED_SHARE * shown and signatures == 0, (shown, wide, signatures)
        narrowed(browser)
        shown, wide, _ = browser.execute_script(CLIPPED)
        assert wide > CLIPPED_SHARE * shown  # the planted regression is seen


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_releases_table_keeps_its_header_and_newest_releases_in_view(browser: WebDriver, base_url: str,
                                                                       lang: str) -> None:
    with screen(browser, LAPTOP):
        visit(browser, f"{base_url}{lang}/reference/releases.html")
        heads = browser.execute_script("""
          const table = document.querySelector('table.vs-compat-table');
          table.scrollIntoView();
          return [...table.querySelectorAll('thead th')].slice(0, 3).map(th => [th.textContent.trim(),
                  th.getBoundingClientRect().right <= window.innerWidth]);""")
        # the example, the pinned release, the newest other release: all in view on load
        assert [in_view for _, in_view in heads] == [True, True, True], heads
        releases = [text for text, _ in heads[1:]]
        assert releases == sorted(releases, key=lambda r: [int(x) for x in r.split(" / ")[0].split(".")],
                                  reverse=True), releases
        stuck = browser.execute_script("""
          const box = document.querySelector('table.vs-compat-table').parentElement;
          box.scrollTop = 600;
          const th = box.querySelector('thead th');
          return [box.scrollTop > 0, Math.round(th.getBoundingClientRect().top - box.getBoundingClientRect().top)];""")
        screenshot(browser, f"{lang}-releases-1280-scrolled")
        assert stuck == [True, 0], stuck  # scrolled inside its box, the header row stays on top


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_a_page_loads_what_it_uses_only(browser: WebDriver, base_url: str, lang: str) -> None:
    with screen(browser, LAPTOP):
        visit(browser, f"{base_url}{lang}/distributed/collectives.html")
        loaded = browser.execute_script(LOADED)
        names = browser.execute_script(
            "return performance.getEntriesByType('resource').map(e => e.name.split('/').pop().split('?')[0])")
        assert "fontawesome.js" not in names and "searchindex.js" not in names, names
        assert loaded <= BYTES_BUDGET, f"{loaded} bytes: {names}"
        # An oversized page is seen: the same page with the icon script back.
        browser.execute_async_script(ICON_SCRIPT)
        assert browser.execute_script(LOADED) > BYTES_BUDGET
        # The search page still finds: it loads the index itself.
        visit(browser, f"{base_url}{lang}/search.html?q=all_reduce")
        names = browser.execute_script(
            "return performance.getEntriesByType('resource').map(e => e.name.split('/').pop().split('?')[0])")
        assert "searchindex.js" in names, names


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_the_tooling_is_out_of_the_readers_navigation(site, lang: str) -> None:
    from bs4 import BeautifulSoup

    # No Python module index (it would list the tooling's modules only); the tooling's own index stays.
    assert not (site / lang / "py-modindex.html").exists() and (site / lang / "py-toolingindex.html").exists()
    soup = BeautifulSoup((site / lang / "index.html").read_text(encoding="utf-8"), "html.parser")
    nav = soup.select_one(".bd-sidebar-primary")
    captions = [c.get_text(strip=True) for c in nav.select("p.caption")]
    assert captions[-1] == {"en": "Reference", "zh": "参考"}[lang], captions
    # no link to the tooling's pages in any section (the contributors' page is an orphan)
    links = [a["href"] for a in nav.select("a")]
    assert links and not [h for h in links if "apidocs/" in h or "reference/index" in h], links


# Each line a code name is cut into, but its last, ends with "_" or ".": (text, [line ends]).
LINE_ENDS = """
return [...document.querySelectorAll(".bd-toc code")].map((code) => {
  const text = code.textContent, range = document.createRange(), ends = [];
  let node = null, offset = 0, top = null;
  const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
  let index = 0;
  while ((node = walker.nextNode())) {
    for (offset = 0; offset < node.length; offset++, index++) {
      range.setStart(node, offset); range.setEnd(node, offset + 1);
      const y = range.getBoundingClientRect().top;
      if (top !== null && Math.abs(y - top) > 2) ends.push(text[index - 1]);
      top = y;
    }
  }
  return [text, ends];
});
"""


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_names_in_the_page_contents_wrap_between_words(browser: WebDriver, base_url: str, lang: str) -> None:
    # At 1440 px the contents column cut set_reduce_scatter_unused_params after "unused" and
    # enable_fsdp_float8_all_gather twice, in the middle of words.
    with screen(browser, 1440):
        visit(browser, f"{base_url}{lang}/sharded/fsdp2_production.html")
        found = browser.execute_script(LINE_ENDS)
    assert any(ends for _text, ends in found), "no name wraps here any more: pick a page where one does"
    cut = [(text, ends) for text, ends in found if any(end not in "_." for end in ends)]
    assert not cut, f"names cut in the middle of a word ({lang}): {cut}"
