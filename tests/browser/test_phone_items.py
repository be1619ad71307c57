"""The reader-experience items of issue 41 on a 390 px phone, in both languages (the laptop side
is tests/browser/test_laptop_layout.py): compat lines, rank outputs, the releases table, the
contributors' section of the navigation drawer, page weight, the Chinese chrome, the GPU tabs'
notes and the start-here path. Each check is measured in the DOM, and the ones a layout can break
are shown to fail on a planted regression."""

from __future__ import annotations

import pytest

from refsite.languages import LANGUAGES
from tests.browser.browser_support import By, WebDriver, screen, screenshot, visit
from tests.browser.test_chinese_chrome import CHROME, ENGLISH
from tests.browser.test_laptop_layout import BYTES_BUDGET, ICON_SCRIPT, LOADED

pytestmark = pytest.mark.browser

PHONE = 390
#: The longest compat line a phone shows unfolded: one group per run of releases alike, the newest
#: error cut to 80 characters, older ones by type only; with 16 releases measured the longest is 289.
LINE_CHARS = 320

#: Visible elements matching a selector that reach past the screen's right edge (a phone widens
#: its layout viewport to such content, so the edge is the screen's width, given), or scroll
#: sideways themselves, for ``own``: their count and the first few.
PAST_EDGE = """
const [selector, own, width] = arguments;
const shown = [...document.querySelectorAll(selector)].filter(e => e.offsetParent);
const past = shown.filter(e => e.getBoundingClientRect().right > width + 1
                              || (own && e.scrollWidth > e.clientWidth + 1));
return [shown.length, past.slice(0, 3).map(e => e.className + ': ' + e.textContent.slice(0, 60))];
"""


def plant(browser: WebDriver, css: str) -> None:
    browser.execute_script("const s = document.createElement('style'); s.textContent = arguments[0];"
                           "document.head.appendChild(s);", css)


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_compat_lines_are_short_and_fit_a_phone(browser: WebDriver, base_url: str, lang: str) -> None:
    with screen(browser, PHONE):
        visit(browser, f"{base_url}{lang}/sharded/fsdp2.html")
        shown, past = browser.execute_script(PAST_EDGE, "p.vs-compat-line", True, PHONE)
        assert shown >= 10 and past == [], past
        lengths = browser.execute_script(
            "return [...document.querySelectorAll('p.vs-compat-line')].map(p => p.textContent.length)")
        assert max(lengths) <= LINE_CHARS, max(lengths)
        # the whole errors are folded below the line
        assert browser.execute_script("return [...document.querySelectorAll('details.vs-compat-errors, "
                                      "details.vs-compat-diff')].every(d => !d.open)")
        plant(browser, "p.vs-compat-line { white-space: nowrap !important; }")
        assert browser.execute_script(PAST_EDGE, "p.vs-compat-line", True, PHONE)[1]  # the planted regression is seen


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_rank_outputs_fit_a_phone(browser: WebDriver, base_url: str, lang: str) -> None:
    with screen(browser, PHONE):
        visit(browser, f"{base_url}{lang}/distributed/collectives.html")
        screenshot(browser, f"{lang}-collectives-390-top")
        shown, past = browser.execute_script(PAST_EDGE, "div.vs-rank", False, PHONE)
        assert shown >= 10 and past == [], past
        plant(browser, "div.vs-rank { min-width: 600px !important; }")
        assert browser.execute_script(PAST_EDGE, "div.vs-rank", False, PHONE)[1]


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_releases_table_scrolls_in_its_box_on_a_phone(browser: WebDriver, base_url: str, lang: str) -> None:
    with screen(browser, PHONE):
        visit(browser, f"{base_url}{lang}/reference/releases.html")
        box_right, head_in_view, stuck = browser.execute_script("""
          const table = document.querySelector('table.vs-compat-table');
          const box = table.parentElement;
          table.scrollIntoView();
          const th = table.querySelectorAll('thead th');
          const inView = th[1].getBoundingClientRect().right <= window.innerWidth;
          box.scrollTop = 600;
          return [box.getBoundingClientRect().right,
                  inView, Math.round(th[0].getBoundingClientRect().top - box.getBoundingClientRect().top)];""")
        screenshot(browser, f"{lang}-releases-390-scrolled")
        # the table scrolls inside a box as wide as the screen; the pinned release's column is in
        # view; scrolled down, the header row stays on top
        assert box_right <= PHONE and head_in_view and stuck == 0, (box_right, head_in_view, stuck)


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_the_phone_drawer_ends_with_the_contributors_section(browser: WebDriver, base_url: str,
                                                             lang: str) -> None:
    with screen(browser, PHONE):
        visit(browser, f"{base_url}{lang}/index.html")
        browser.find_element(By.CSS_SELECTOR, "button.primary-toggle").click()
        captions = browser.execute_script(
            "return [...document.querySelectorAll('.bd-sidebar-primary p.caption')]"
            ".filter(c => c.offsetParent).map(c => c.textContent.trim())")
        screenshot(browser, f"{lang}-drawer-390")
        assert len(captions) >= 5 and captions[-1] == {"en": "Reference", "zh": "参考"}[lang], captions


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_a_page_on_a_phone_loads_what_it_uses_only(browser: WebDriver, base_url: str, lang: str) -> None:
    with screen(browser, PHONE):
        visit(browser, f"{base_url}{lang}/distributed/collectives.html")
        assert browser.execute_script(LOADED) <= BYTES_BUDGET
        browser.execute_async_script(ICON_SCRIPT)
        assert browser.execute_script(LOADED) > BYTES_BUDGET  # an oversized page is seen


def test_the_chinese_chrome_on_a_phone(browser: WebDriver, base_url: str) -> None:
    with screen(browser, PHONE):
        for lang, english in (("zh", []), ("en", ["Search...", "Toggle primary sidebar"])):
            visit(browser, f"{base_url}{lang}/distributed/collectives.html")
            text = browser.execute_script(CHROME)
            found = [word for word in ENGLISH if word in text]
            assert (found == []) if lang == "zh" else set(found) >= set(english), (lang, found)
        assert browser.execute_script("return document.querySelector('input[type=search]').placeholder") == "Search..."


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_a_gpu_tab_explains_itself_on_a_phone(browser: WebDriver, base_url: str, lang: str) -> None:
    with screen(browser, PHONE):
        visit(browser, f"{base_url}{lang}/parallel/ddp.html")
        note = browser.execute_script("""
          const note = document.querySelector('p.vs-gpu-note');
          const panel = note.closest('.vs-tab-panel');
          const tabs = panel.parentElement.querySelectorAll(':scope > .vs-tab-list > [role=tab]');
          const panels = [...panel.parentElement.querySelectorAll(':scope > .vs-tab-panel')];
          tabs[panels.indexOf(panel)].click();
          note.scrollIntoView({block: 'center'});
          const r = note.getBoundingClientRect();
          return [note.offsetParent !== null, r.right, note.textContent, !!note.querySelector('a[href]')];""")
        screenshot(browser, f"{lang}-gpu-tab-390")
        visible, right, text, linked = note
        assert visible and right <= PHONE and linked and "GPU" in text, note


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_the_start_here_path_on_a_phone(browser: WebDriver, base_url: str, lang: str) -> None:
    with screen(browser, PHONE):
        visit(browser, f"{base_url}{lang}/index.html")
        shown, past = browser.execute_script(PAST_EDGE, "section#home-start li", False, PHONE)
        top = browser.execute_script("return document.querySelector('section#home-start').getBoundingClientRect().top")
        screenshot(browser, f"{lang}-home-390")
        # within the first two screens of the page, every step within the screen's width
        assert shown >= 4 and past == [] and top < 2 * 800, (shown, past, top)
