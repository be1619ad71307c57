"""The built site in headless Chromium: clean pages, language switch, rank tabs, search, offline.

The site is built once with ``docs/build.py`` from the real docs, served on 127.0.0.1, and
driven through the system's chromedriver (nothing is downloaded).
"""

from __future__ import annotations

import functools
import http.server
import json
import re
import subprocess
import sys
import threading
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

import snippetspec

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
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built by ``docs/build.py`` into a temporary directory."""
    out = tmp_path_factory.mktemp("site")
    done = subprocess.run([sys.executable, str(REPO / "docs" / "build.py"), str(out)], cwd=REPO,
                          capture_output=True, text=True)
    assert done.returncode == 0, f"docs/build.py failed:\n{done.stdout[-6000:]}{done.stderr[-3000:]}"
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


def is_local(url: str) -> bool:
    return url.startswith(("data:", "blob:")) or urllib.parse.urlsplit(url).hostname == "127.0.0.1"


def visit(driver: WebDriver, url: str) -> None:
    """Open ``url``; fail on console errors or on requests to any other host."""
    driver.get(url)
    WebDriverWait(driver, 10).until(lambda d: d.execute_script("return document.readyState") == "complete")
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


def test_every_page_switches_language_both_ways(browser: WebDriver, base_url: str, site: Path) -> None:
    for page in sorted(html_pages(site, "en")):
        en, zh = f"{base_url}en/{page}", f"{base_url}zh/{page}"
        visit(browser, en)
        browser.find_element(By.CSS_SELECTOR, "a.lang-switch").click()
        WebDriverWait(browser, 10).until(lambda d: d.current_url == zh, f"en/{page} -> {zh}")
        visit(browser, zh)  # checks the Chinese page's console and requests
        browser.find_element(By.CSS_SELECTOR, "a.lang-switch").click()
        WebDriverWait(browser, 10).until(lambda d: d.current_url == en, f"zh/{page} -> {en}")


def test_rank_tabs_show_one_rank_at_a_time(browser: WebDriver, base_url: str) -> None:
    record = snippetspec.read_record(REPO / "snippets/distributed/all_reduce.gloo-cpu-2.out.json")
    visit(browser, base_url + "en/distributed/collectives.html")
    variant = browser.find_element(By.CSS_SELECTOR, "div.vs-variant:not([hidden])")
    panes = variant.find_elements(By.CSS_SELECTOR, "div.vs-rank")
    button = next(b for b in variant.find_elements(By.CSS_SELECTOR, "button.vs-tab-button")
                  if b.text == "rank 1")
    assert panes[0].is_displayed() and not panes[1].is_displayed()
    button.click()
    assert panes[1].is_displayed() and not panes[0].is_displayed()
    assert button.get_attribute("aria-selected") == "true"
    shown = panes[1].find_element(By.CSS_SELECTOR, "pre").text
    assert shown == record.ranks[1].rstrip("\n")


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
