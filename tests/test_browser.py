"""The built site in headless Chromium: clean pages, language switch, ranks, search, offline.

The site is built once with ``docs/build.py`` from the real docs, served on 127.0.0.1, and
driven through the system's chromedriver (nothing is downloaded).
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import http.server
import json
import re
import shutil
import subprocess
import sys
import threading
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

import passed_checks
import snippetspec
from verified_snippets import side_by_side

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parent.parent
CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--window-size=1400,1000")

if not (CHROMIUM.is_file() and CHROMEDRIVER.is_file()):
    pytest.skip(f"needs {CHROMIUM} and {CHROMEDRIVER}", allow_module_level=True)

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402
from selenium.webdriver.remote.webelement import WebElement  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


#: What the built site is made of: its digest names the build, so an unchanged tree is not
#: built again (apidocs/ is written by the build itself, from src/ and docs/_ext).
SITE_INPUTS = ("conf.py", "docs", "snippets", "src")
SITES = REPO / "_build" / "browser-site"


def site_digest() -> str:
    files = sorted(p for name in SITE_INPUTS for p in ([REPO / name] if (REPO / name).is_file()
                   else (REPO / name).rglob("*"))
                   if p.is_file() and "apidocs" not in p.parts and "__pycache__" not in p.parts)
    names = "\n".join(p.relative_to(REPO).as_posix() for p in files)
    return passed_checks.digest(passed_checks.environment_digest(), names, *files)


@pytest.fixture(scope="session")
def site(worker_id: str) -> Path:
    """The site, built by ``docs/build.py`` into ``_build/browser-site/<digest>``, where the
    digest covers every file it is built from and the tooling's versions: a run with nothing
    changed reuses the last build. With pytest-xdist one worker builds while the others wait
    on a lock (the build takes about half a minute of both cores)."""
    SITES.mkdir(parents=True, exist_ok=True)
    out = SITES / site_digest()[:16]
    with open(SITES / "build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (out / "built").exists():
            for old in SITES.iterdir():  # earlier builds, and a failed one
                if old.is_dir():
                    shutil.rmtree(old)
            done = subprocess.run([sys.executable, str(REPO / "docs" / "build.py"), str(out)], cwd=REPO,
                                  capture_output=True, text=True)
            assert done.returncode == 0, f"docs/build.py failed:\n{done.stdout[-6000:]}{done.stderr[-3000:]}"
            (out / "built").write_text(f"built by docs/build.py for worker {worker_id}\n")
    return out


@pytest.fixture(scope="session")
def base_url(site: Path) -> Iterator[str]:
    """``http://127.0.0.1:PORT/`` serving the built site."""
    handler = functools.partial(_QuietHandler, directory=str(site))
    with http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler) as server:
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        yield f"http://127.0.0.1:{server.server_address[1]}/"
        server.shutdown()
        thread.join()


@pytest.fixture(scope="session")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebDriver]:
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)), options=options)
    driver.set_page_load_timeout(30)
    driver.get("about:blank")
    drain(driver)  # forget the browser's own start-up page
    yield driver
    driver.quit()


def drain(driver: WebDriver) -> tuple[list[str], list[str]]:
    """Console errors and request URLs since the last call."""
    errors = [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    urls = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.requestWillBeSent":
            urls.append(message["params"]["request"]["url"])
    return errors, urls


@contextlib.contextmanager
def screen(driver: WebDriver, width: int, height: int = 800) -> Iterator[None]:
    """Lay pages out for a screen ``width`` CSS pixels wide (a phone below 500).

    Headless Chromium will not make its window narrower than 500 px, so the width is set
    with the DevTools device-metrics override; below 500 px it emulates a phone (mobile
    viewport, the pages' ``<meta name="viewport">`` honoured).
    """
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 500})
    try:
        yield
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def rect(element: WebElement) -> dict[str, float]:
    """The element's bounding client rectangle (left, right, top, bottom, width, height)."""
    return element.parent.execute_script("return arguments[0].getBoundingClientRect().toJSON()",
                                         element)


def in_one_row(elements: list[WebElement]) -> bool:
    """Whether the elements stand left to right at the same height, without overlapping."""
    boxes = [rect(e) for e in elements]
    return all(abs(a["top"] - b["top"]) < 1 and a["right"] <= b["left"]
               for a, b in zip(boxes, boxes[1:]))


def is_local(url: str) -> bool:
    return url.startswith(("data:", "blob:")) or urllib.parse.urlsplit(url).hostname == "127.0.0.1"


def visit(driver: WebDriver, url: str) -> None:
    """Open ``url``; fail on console errors or on requests to any other host."""
    driver.get(url)
    WebDriverWait(driver, 10).until(lambda d: d.execute_script("return document.readyState") == "complete")
    check_console(driver, url)


def check_console(driver: WebDriver, url: str) -> None:
    """Fail on console errors, or requests to any other host, since the last check."""
    errors, urls = drain(driver)
    assert not errors, f"console errors on {url}:\n" + "\n".join(errors)
    foreign = [u for u in urls if not is_local(u)]
    assert not foreign, f"{url} made requests that leave 127.0.0.1:\n" + "\n".join(foreign)


def html_pages(site: Path, lang: str) -> set[str]:
    """The pages of one language, relative to its directory (assets excluded)."""
    tree = site / lang
    return {
        p.relative_to(tree).as_posix() for p in tree.rglob("*.html")
        if not p.relative_to(tree).parts[0].startswith("_")
    }


def test_both_languages_have_the_same_pages(site: Path) -> None:
    en, zh = html_pages(site, "en"), html_pages(site, "zh")
    assert en == zh
    assert {"index.html", "distributed/collectives.html", "search.html"} <= en


def test_landing_page_offers_both_languages(browser: WebDriver, base_url: str) -> None:
    visit(browser, base_url)
    links = {a.get_attribute("hreflang"): a.get_attribute("href")
             for a in browser.find_elements(By.CSS_SELECTOR, "a.lang")}
    assert links == {"en": base_url + "en/index.html", "zh-CN": base_url + "zh/index.html"}


SHARDS = 3  # the pages split into parts, so that xdist workers share the long walk


@pytest.mark.parametrize("shard", range(SHARDS))
def test_every_page_switches_language_both_ways(browser: WebDriver, base_url: str, site: Path,
                                                shard: int) -> None:
    for page in sorted(html_pages(site, "en"))[shard::SHARDS]:
        en, zh = f"{base_url}en/{page}", f"{base_url}zh/{page}"
        visit(browser, en)
        browser.find_element(By.CSS_SELECTOR, "a.lang-switch").click()
        WebDriverWait(browser, 10).until(lambda d: d.current_url == zh and d.execute_script(
            "return document.readyState") == "complete", f"en/{page} -> {zh}")
        check_console(browser, zh)  # the Chinese page, as the click loaded it
        browser.find_element(By.CSS_SELECTOR, "a.lang-switch").click()
        WebDriverWait(browser, 10).until(lambda d: d.current_url == en, f"zh/{page} -> {en}")


def test_rank_tabs_show_one_rank_at_a_time(browser: WebDriver, base_url: str) -> None:
    record = snippetspec.read_record(REPO / "snippets/distributed/reduce_ops.gloo-cpu-2.out.json")
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


def snippet_block(driver: WebDriver, name: str) -> WebElement:
    """The ``div.vs-snippet`` of the snippet file ``name`` on the current page."""
    link = driver.find_element(By.CSS_SELECTOR, f"div.vs-snippet a.download[href$='/{name}']")
    return link.find_element(By.XPATH, "ancestor::div[contains(@class, 'vs-snippet')]")


def test_short_rank_outputs_stand_side_by_side(browser: WebDriver, base_url: str) -> None:
    record = snippetspec.read_record(REPO / "snippets/distributed/all_reduce.gloo-cpu-2.out.json")
    assert side_by_side(record.ranks)
    with screen(browser, 1400):
        visit(browser, base_url + "en/distributed/collectives.html")
        variant = snippet_block(browser, "all_reduce.py").find_element(
            By.CSS_SELECTOR, "div.vs-variant:not([hidden])")
        ranks = variant.find_element(By.CSS_SELECTOR, "div.vs-ranks")
        panes = ranks.find_elements(By.CSS_SELECTOR, "div.vs-rank")
        switch = ranks.find_element(By.CSS_SELECTOR, "button.vs-layout-switch")
        assert switch.text == "side by side" and switch.get_attribute("aria-pressed") == "true"
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


#: What may not stick out past the right edge of a phone screen: the whole page, and in the
#: article its titles, tables, code blocks and tab lists (long ones wrap or scroll inside).
OVERFLOW_SCRIPT = """
const width = arguments[0];
const sticking = Array.from(document.querySelectorAll(
    ".bd-article :is(h1, h2, h3, h4, table, pre, .vs-tab-list)"))
  .filter((el) => el.getClientRects().length && el.getBoundingClientRect().right > width + 0.5)
  .map((el) => `${el.tagName.toLowerCase()} "${el.textContent.trim().slice(0, 40)}" reaches `
               + Math.round(el.getBoundingClientRect().right));
return [window.innerWidth, document.documentElement.scrollWidth, sticking];
"""


@pytest.mark.parametrize("width", [400, 360])
@pytest.mark.parametrize("lang", ["en", "zh"])
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


SCREENSHOTS = REPO / "_build" / "screenshots"


def screenshot(driver: WebDriver, name: str) -> Path:
    """Save what the browser shows as ``_build/screenshots/NAME.png`` and print its path."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    assert driver.save_screenshot(str(path)), path
    print(f"screenshot: {path}")
    return path


def scroll_to(driver: WebDriver, element: WebElement) -> None:
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)


@pytest.mark.parametrize("lang", ["en", "zh"])
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
        declared = snippetspec.read_spec(REPO / "snippets/distributed/all_reduce.py").variants
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


def test_download_links_serve_the_snippet(browser: WebDriver, base_url: str) -> None:
    visit(browser, base_url + "en/tensors/creation.html")
    links = [a.get_attribute("href") for a in browser.find_elements(By.CSS_SELECTOR, "a.download")]
    names = [urllib.parse.urlsplit(u).path.rsplit("/", 1)[1] for u in links]
    page = (REPO / "docs/en/tensors/creation.md").read_text(encoding="utf-8")
    embedded = re.findall(r"^```\{snippet\} tensors/(\S+)$", page, re.MULTILINE)
    assert names == embedded and "arange.py" in names  # one link per snippet, in page order
    with urllib.request.urlopen(links[names.index("arange.py")]) as response:
        assert response.read() == (REPO / "snippets/tensors/arange.py").read_bytes()


@pytest.mark.parametrize(("lang", "query", "page"), [
    ("en", "all_reduce", "distributed/collectives"),
    ("zh", "归约", "distributed/collectives"),
    ("zh", "广播", "parallel/ddp"),
])
def test_search_finds_the_page(browser: WebDriver, base_url: str, lang: str, query: str, page: str) -> None:
    visit(browser, f"{base_url}{lang}/search.html?q={urllib.parse.quote(query)}")
    selector = "#search-results ul.search li a"
    WebDriverWait(browser, 15).until(lambda d: d.find_elements(By.CSS_SELECTOR, selector), query)
    hrefs = [a.get_attribute("href") for a in browser.find_elements(By.CSS_SELECTOR, selector)]
    assert any(h.split("?")[0].split("#")[0] == f"{base_url}{lang}/{page}.html" for h in hrefs), hrefs
    errors, urls = drain(browser)
    assert not errors and all(map(is_local, urls)), (errors, urls)


def test_only_loopback_data_and_blob_urls_count_as_local() -> None:
    assert all(map(is_local, ["http://127.0.0.1:8000/en/index.html", "data:,", "blob:http://127.0.0.1/x"]))
    assert not any(map(is_local, ["https://fonts.googleapis.com/css", "http://localhost:8000/",
                                  "chrome://resources/x.js", "http://127.0.0.1.example.com/"]))
