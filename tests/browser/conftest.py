"""The browser tests' shared, session-wide fixtures: the built site, a local server for it, and
one headless Chromium (the system's, driven through the system's chromedriver; nothing is
downloaded). With pytest-xdist each worker has its own server and browser and they share the
build.
"""

from __future__ import annotations

import functools
import http.server
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from refsite import site_builds
from tests.support.paths import REPO

if TYPE_CHECKING:
    from selenium.webdriver.remote.webdriver import WebDriver


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="session")
def site() -> Path:
    """The site, built by ``docs/build.py`` (into ``_build/site-cache/<digest>``, where the
    digest covers every file it is built from: a run with nothing changed, or ``make html``
    after this, reuses the build). With pytest-xdist one worker builds while the others wait on
    the build's lock (it takes about half a minute of both cores)."""
    out = site_builds.build_dir(REPO)
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
    """Headless Chromium with console and network logging (``browser_support.drain`` reads them)."""
    from tests.browser.browser_support import CHROMIUM, CHROMEDRIVER, FLAGS, Service, drain, webdriver

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
