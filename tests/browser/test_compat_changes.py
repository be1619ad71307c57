"""The chooser of two releases on ``reference/changes`` (issue 43, item 4): the list the page is
built with, and the one the script draws after the reader picks another pair, both name exactly
the examples whose result differs between the two releases, as the committed measurement files
say (read on their own by :mod:`compat_lines`, not through the code that made the page)."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from refsite import snippets
from refsite.measurements import compat_results
from tests.browser.browser_support import By, WebDriver, WebDriverWait, visit
from tests.support.compat_lines import measured
from tests.support.paths import REPO

pytestmark = pytest.mark.browser

SNIPPETS = REPO / "snippets"
COMPAT = REPO / compat_results.COMPAT_DIR


def _code(claim: str | None) -> str | None:
    """``fails: TYPE: MESSAGE`` -> ``fails: TYPE``: the chooser compares results by kind and
    exception type. A result repeated on its release ("same in 8 of 12, hangs in 4") compares as
    its stored run, one of its most frequent kind (a repeated failure would lack its type here
    and so differ from the chooser's code: such a test failure says to teach this reader it)."""
    if claim and " of " in claim.split(",")[0]:
        return claim.split(" in ")[0]
    return ": ".join(claim.split(": ")[:2]) if claim else None


@functools.cache
def _truth() -> dict[str, dict[str, str]]:
    found = {}
    for path in snippets.snippet_paths(SNIPPETS):
        spec = snippets.read_spec(path)
        for variant in (v for v in spec.variants if v.device == "cpu"):
            rel = path.relative_to(SNIPPETS).as_posix()
            found[f"{rel} [{variant.id}]"] = measured(COMPAT, spec, variant, SNIPPETS)
    return found


def expected(old: str, new: str) -> list[str]:
    """The examples that behave differently on ``new`` than on ``old``, in the files' words."""
    return [name for name, truth in _truth().items()
            if _code(truth.get(old)) and _code(truth.get(new)) and _code(truth.get(old)) != _code(truth.get(new))]


def _listed(browser: WebDriver) -> list[str]:
    return [row.find_element(By.CSS_SELECTOR, "td").text
            for row in browser.find_elements(By.CSS_SELECTOR, ".vs-compat-changes tbody tr")]


def _drawn(browser: WebDriver, old: str, new: str) -> None:
    """Wait until the script has fetched compat/v1 and drawn the list of (old, new)."""
    widget = browser.find_element(By.CSS_SELECTOR, ".vs-compat-changes")
    WebDriverWait(browser, 20).until(lambda _: widget.get_attribute("data-drawn") == f"{old}>{new}",
                                     message=f"the list of {old} -> {new} was not drawn: "
                                             + browser.find_element(By.CSS_SELECTOR, ".vs-compat-changes-summary").text)


def _pick(browser: WebDriver, name: str, release: str) -> None:
    browser.execute_script(
        "const s = document.querySelector(`.vs-compat-changes select[name='${arguments[0]}']`);"
        "s.value = arguments[1]; s.dispatchEvent(new Event('change'));", name, release)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_chooser_lists_what_the_files_say_changed(browser: WebDriver, base_url: str, site: Path,
                                                       lang: str) -> None:
    visit(browser, f"{base_url}{lang}/reference/changes.html")
    options = [o.get_attribute("value") for o in
               browser.find_elements(By.CSS_SELECTOR, ".vs-compat-changes select[name='old'] option")]
    pinned = max(options, key=compat_results.release_key)
    before = sorted(options, key=compat_results.release_key)[-2]
    assert _listed(browser) == expected(before, pinned), "the list the page was built with"
    oldest_measured = min((r for r in options if any(t.get(r) for t in _truth().values()) and r != pinned),
                          key=compat_results.release_key)
    for old, new in ((oldest_measured, pinned), ("2.6", "2.10"), ("2.10", "2.6")):
        if old not in options or new not in options:
            continue
        _pick(browser, "old", old)
        _pick(browser, "new", new)
        _drawn(browser, old, new)
        listed = _listed(browser)
        assert listed == expected(old, new), f"{old} -> {new} ({lang})"
        summary = browser.find_element(By.CSS_SELECTOR, ".vs-compat-changes-summary").text
        assert str(len(listed)) in summary and old in summary and new in summary, summary
    assert listed, "a pair this far apart changes something; an empty list means the script drew nothing"
    for link in browser.find_elements(By.CSS_SELECTOR, ".vs-compat-changes tbody a")[:20]:
        page = link.get_attribute("href").split("#")[0].removeprefix(base_url)
        snippet = link.text.split(" [")[0]  # a page names an embedded snippet by its file name
        assert Path(snippet).name in (site / page).read_text(encoding="utf-8"), f"{page} does not show {snippet}"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_page_stays_small_and_the_script_reads_compat_v1(site: Path, lang: str) -> None:
    # The chooser embeds no results of its own: the script fetches compat/v1 when the pair changes.
    page = (site / lang / "reference" / "changes.html").read_text(encoding="utf-8")
    assert len(page.encode()) < 400_000, f"{lang}/reference/changes.html is {len(page.encode()):,} bytes"
    assert '"compat":"../compat/v1/"' in page and '"results"' not in page
    assert (site / lang / "compat" / "v1" / "index.json").exists()
