"""The built site on a phone and on a wide screen: no page scrolls sideways, and the
collectives page lays its rank outputs, code and tabs out for both (photographed into
``_build/screenshots``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from refsite import snippets
from refsite.languages import LANGUAGES
from tests.browser.browser_support import (OVERFLOW_SCRIPT, REPO, By, WebDriver, html_pages, in_one_row, rect,
                             screen, screenshot, scroll_to, snippet_block, visit)

pytestmark = pytest.mark.browser


# The narrowest common phone; the per-item tests (test_phone_items.py) check 390 px, the collectives
# page 400 px. Every page at two widths cost the suite about 50 s for little more.
@pytest.mark.parametrize("width", [360])
@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_no_page_scrolls_sideways_on_a_phone(browser: WebDriver, base_url: str, site: Path,
                                             lang: str, width: int) -> None:
    wide = []
    with screen(browser, width):
        for page in sorted(html_pages(site, lang)):
            visit(browser, f"{base_url}{lang}/{page}")
            inner, scroll, sticking = browser.execute_script(OVERFLOW_SCRIPT, width)
            # A phone widens its layout viewport to content that does not fit.
            if inner != width or scroll > width or sticking:
                wide.append(f"{lang}/{page}: {scroll} px wide; " + "; ".join(sticking))
    assert not wide, f"pages wider than a {width} px screen:\n" + "\n".join(wide)


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_distributed_page_on_a_wide_screen_and_a_phone(browser: WebDriver, base_url: str,
                                                        lang: str) -> None:
    """The collectives page at 1400 px and 400 px, measured in the DOM and photographed."""
    url = f"{base_url}{lang}/distributed/collectives.html"
    with screen(browser, 1400, 1000):
        visit(browser, url)
        screenshot(browser, f"{lang}-collectives-1400-top")
        panes = snippet_block(browser, "all_reduce.py").find_elements(
            By.CSS_SELECTOR, "div.vs-variant:not([hidden]) div.vs-rank")
        scroll_to(browser, panes[0])
        screenshot(browser, f"{lang}-collectives-1400-ranks")
        assert len(panes) == 2 and in_one_row(panes)
        # Every block shown in columns shows each line whole: the side_by_side rule holds.
        for ranks in browser.find_elements(By.CSS_SELECTOR, "div.vs-ranks-columns"):
            if not ranks.is_displayed():
                continue
            columns = ranks.find_elements(By.CSS_SELECTOR, "div.vs-rank")
            assert in_one_row(columns), ranks.text
            for pre in ranks.find_elements(By.CSS_SELECTOR, "pre"):
                assert browser.execute_script(
                    "return arguments[0].scrollWidth <= arguments[0].clientWidth", pre), pre.text

    with screen(browser, 400):
        visit(browser, url)
        screenshot(browser, f"{lang}-collectives-400-top")
        inner, scroll, sticking = browser.execute_script(OVERFLOW_SCRIPT, 400)
        assert (inner, scroll, sticking) == (400, 400, [])
        # Long code lines scroll inside their block instead of widening the page.
        source = snippet_block(browser, "all_reduce.py").find_element(
            By.CSS_SELECTOR, "div.vs-source pre")
        assert browser.execute_script(
            "return arguments[0].scrollWidth > arguments[0].clientWidth", source)

        # Short outputs stack, each under its rank's label.
        block = snippet_block(browser, "all_reduce.py")
        panes = block.find_elements(By.CSS_SELECTOR, "div.vs-variant:not([hidden]) div.vs-rank")
        scroll_to(browser, panes[0])
        screenshot(browser, f"{lang}-collectives-400-ranks")
        first, second = rect(panes[0]), rect(panes[1])
        assert first["bottom"] <= second["top"] and second["right"] <= 400
        assert all(p.find_element(By.CSS_SELECTOR, "p.vs-tab-label").is_displayed()
                   for p in panes)

        # The variant tabs fit on the screen and switch.
        buttons = block.find_elements(By.CSS_SELECTOR, "div.vs-variants > div.vs-tab-list > button")
        declared = snippets.read_spec(REPO / "snippets/distributed/all_reduce.py").variants
        assert len(buttons) == len(declared) and all(rect(b)["right"] <= 400 for b in buttons)
        variants = block.find_elements(By.CSS_SELECTOR, "div.vs-variant")
        buttons[2].click()
        assert variants[2].is_displayed() and not variants[0].is_displayed()
        buttons[0].click()

        # A long output keeps one tab per rank, and its tabs work on the phone too.
        block = snippet_block(browser, "reduce_ops.py")
        variant = block.find_element(By.CSS_SELECTOR, "div.vs-variant:not([hidden])")
        tabs = variant.find_elements(By.CSS_SELECTOR, "div.vs-ranks button[role=tab]")
        panes = variant.find_elements(By.CSS_SELECTOR, "div.vs-rank")
        scroll_to(browser, tabs[1])
        assert all(rect(t)["right"] <= 400 for t in tabs)
        tabs[1].click()
        assert panes[1].is_displayed() and not panes[0].is_displayed()
        screenshot(browser, f"{lang}-collectives-400-rank-tabs")
