"""The site at a laptop's 1280 x 800, the width readers most often have (issue 41), and at 1440 px:
two ranks' outputs side by side, code blocks that fit (signatures and outputs wrap, sources fit
the column budget of refsite.lint.code_width), the releases tables with their header and newest
releases in view, and pages that load what they use only. Each check is a script measured in the
DOM, and each is shown to fail on a planted regression (a narrowed article, code that may not
wrap, an extra megabyte)."""

from __future__ import annotations

import pytest

from refsite.languages import LANGUAGES
from refsite.lint.code_width import BUDGET
from tests.browser.browser_support import WebDriver, screen, screenshot, visit

pytestmark = pytest.mark.browser

LAPTOP = 1280
#: Pages with many code blocks and two-rank outputs.
PAGES = ("distributed/collectives.html", "sharded/fsdp2.html")
#: The most of a page's code blocks that may scroll sideways at 1280 px (before issue 41: 32 of 71
#: on collectives, 44 of 66 on the Chinese fsdp2 page; until issue 55, 0.25 was allowed; now their
#: sources fit the 97 columns of the budget and outputs wrap).
CLIPPED_SHARE = 0.1
#: The 8 pages with the most code blocks (sources and outputs shown), issue 55: at 1280 and 1440 px
#: at most SCROLL_SHARE of their source blocks, and of their output blocks, scroll sideways
#: (before, at 1280 / 1440 px: sources 51 / 65 of 100 in English, 35 / 51 in Chinese; outputs 38 of
#: 144 at both widths, in both languages; after: sources 4 of 100 at 1280 px, in both languages,
#: the four not-yet-reflowed snippets of refsite.lint.code_width.NOT_YET on debugging/clusters and
#: debugging/failures, none at 1440 px; outputs none).
BUSIEST = ("sharded/fsdp_migration.html", "debugging/failures.html", "distributed/collectives.html",
           "tensors/creation.html", "distributed/launch.html", "sharded/fsdp2.html",
           "debugging/clusters.html", "tensors/join_split.html")
SCROLL_SHARE = 0.1
#: Source blocks and output blocks shown in the article, and how many of each scroll sideways.
SCROLLING = """
const shown = (selector) => [...document.querySelectorAll(selector)].filter(p => p.offsetParent);
const wide = (pres) => pres.filter(p => p.scrollWidth > p.clientWidth + 1).length;
const sources = shown('.bd-article div.vs-source pre'), outputs = shown('.bd-article div.vs-output pre');
return [sources.length, wide(sources), outputs.length, wide(outputs)];
"""
#: The monospace columns a source block shows whole: its content width over a glyph's width.
COLUMNS = """
const pre = [...document.querySelectorAll('.bd-article div.vs-source pre')].find(p => p.offsetParent);
const probe = document.createElement('span');
probe.textContent = 'x'.repeat(100);
pre.appendChild(probe);
const glyph = probe.getBoundingClientRect().width / 100;
probe.remove();
const style = getComputedStyle(pre);
return (pre.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)) / glyph;
"""
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


@pytest.mark.parametrize("width", [LAPTOP, 1440])
@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_code_fits_on_the_busiest_pages(browser: WebDriver, base_url: str, lang: str, width: int) -> None:
    with screen(browser, width):
        counts = {}
        for page in BUSIEST:
            visit(browser, f"{base_url}{lang}/{page}")
            counts[page] = browser.execute_script(SCROLLING)
            if page == BUSIEST[0]:
                screenshot(browser, f"{lang}-{page.replace('/', '-')[:-5]}-{width}-top")
                # the code column holds the column budget, and no fewer columns at 1440 px than at 1280
                assert browser.execute_script(COLUMNS) >= BUDGET + 0.5
        assert all(sources and outputs for sources, _, outputs, _ in counts.values()), counts
        # over the 8 pages (debugging/clusters shows two sources only, and both scroll at 1280 px:
        # multinode/train_steps.py and allreduce_timing.py wait for make cluster-records, see
        # refsite.lint.code_width.NOT_YET)
        sources, wide_sources, outputs, wide_outputs = map(sum, zip(*counts.values()))
        assert wide_sources <= SCROLL_SHARE * sources, f"{wide_sources} of {sources} sources scroll: {counts}"
        assert wide_outputs <= SCROLL_SHARE * outputs, f"{wide_outputs} of {outputs} outputs scroll: {counts}"
        # the planted regression is seen: a narrowed article whose outputs may not wrap
        narrowed(browser)
        sources, wide_sources, outputs, wide_outputs = browser.execute_script(SCROLLING)
        assert wide_sources > SCROLL_SHARE * sources and wide_outputs > SCROLL_SHARE * outputs


def test_a_wrapped_output_line_is_marked(browser: WebDriver, base_url: str) -> None:
    """A printed line too long for its block wraps: its rows after the first are indented, and the
    line carries the dotted mark; a copied block is still the lines printed."""
    with screen(browser, LAPTOP):
        visit(browser, f"{base_url}en/tensors/creation.html")
        found = browser.execute_script("""
          const pre = [...document.querySelectorAll('.bd-article div.vs-output pre')]
            .find(p => p.offsetParent && p.querySelector('.vs-line-wrapped'));
          if (!pre) return null;
          pre.scrollIntoView({block: 'center'});
          const line = pre.querySelector('.vs-line-wrapped');
          const range = document.createRange();
          range.selectNodeContents(line);
          const rows = [...range.getClientRects()];
          return [rows.length, Math.round(rows[1].left - rows[0].left), getComputedStyle(line).borderLeftStyle,
                  pre.innerText.split('\\n').length, pre.querySelectorAll('.vs-line').length];""")
        screenshot(browser, "en-creation-1280-wrapped-output")
    assert found, "no output line wraps on tensors/creation at 1280 px: pick a page where one does"
    rows, indent, border, text_lines, lines = found
    assert rows > 1 and indent > 10 and border == "dotted", found
    assert text_lines in (lines, lines + 1), found  # one text line per printed line


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
