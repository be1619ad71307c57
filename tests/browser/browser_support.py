"""What the browser tests share: the Chromium set-up, page visits that fail on console errors
or on requests leaving 127.0.0.1, screen sizes, and layout measurements.

Importing this module skips the importing test module when Chromium or chromedriver is missing
(with ``CI`` set it fails instead, saying what to install).
"""

from __future__ import annotations

import contextlib
import json
import urllib.parse
from collections.abc import Iterator
from pathlib import Path


from refsite.testing import machine


CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--window-size=1400,1000")

if not (CHROMIUM.is_file() and CHROMEDRIVER.is_file()):
    machine.cannot_run(f"needs {CHROMIUM} and {CHROMEDRIVER}: as root, `make system-deps` installs them "
                       f"(apt-get install chromium chromium-driver)", module=True)

from selenium import webdriver  # noqa: E402,F401 (the browser fixture starts it)
from selenium.webdriver.chrome.service import Service  # noqa: E402,F401
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402
from selenium.webdriver.remote.webelement import WebElement  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait as _SeleniumWait  # noqa: E402
from tests.support.paths import REPO


class WebDriverWait(_SeleniumWait):
    """Selenium's wait, looking every 50 ms: its default of 500 ms adds about a quarter of a
    second to each of hundreds of page loads and searches."""

    def __init__(self, driver: WebDriver, timeout: float, poll_frequency: float = 0.05, **kwargs) -> None:
        super().__init__(driver, timeout, poll_frequency, **kwargs)


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


def search(driver: WebDriver, url: str) -> list[tuple[str, str]]:
    """Open a search page ``url`` (``.../search.html?q=...``) and wait until the search has
    finished (Sphinx shows results one by one, then writes its summary): every result's
    (href, text), in the order shown."""
    driver.get(url)
    WebDriverWait(driver, 20).until(lambda d: d.execute_script(
        "const s = document.querySelector('#search-results p.search-summary');"
        "return s !== null && s.innerText.trim() !== '';"), f"search did not finish: {url}")
    return [(a.get_attribute("href"), a.text)
            for a in driver.find_elements(By.CSS_SELECTOR, "#search-results ul.search li > a")]


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


def snippet_block(driver: WebDriver, name: str) -> WebElement:
    """The ``div.vs-snippet`` of the snippet file ``name`` on the current page."""
    link = driver.find_element(By.CSS_SELECTOR, f"div.vs-snippet a.download[href$='/{name}']")
    return link.find_element(By.XPATH, "ancestor::div[contains(@class, 'vs-snippet')]")


#: What may not stick out past the right edge of a phone screen: the whole page, and in the
#: article its titles, tables, code blocks and tab lists (long ones wrap or scroll inside).
OVERFLOW_SCRIPT = """
const width = arguments[0];
// An element wider than the screen is fine inside a box that scrolls sideways and fits the screen.
const boxed = (el) => {
  for (let box = el.parentElement; box; box = box.parentElement) {
    if (["auto", "scroll", "hidden"].includes(getComputedStyle(box).overflowX))
      return box.getBoundingClientRect().right <= width + 0.5;
  }
  return false;
};
const sticking = Array.from(document.querySelectorAll(
    ".bd-article :is(h1, h2, h3, h4, table, pre, .vs-tab-list)"))
  .filter((el) => el.getClientRects().length && el.getBoundingClientRect().right > width + 0.5 && !boxed(el))
  .map((el) => `${el.tagName.toLowerCase()} "${el.textContent.trim().slice(0, 40)}" reaches `
               + Math.round(el.getBoundingClientRect().right));
return [window.innerWidth, document.documentElement.scrollWidth, sticking];
"""


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
