"""The browser tests' shared, session-wide fixtures: the built site, a local server for it, and
one headless Chromium (the system's, driven through the system's chromedriver; nothing is
downloaded). With pytest-xdist each worker has its own server and browser and they share the
build.
"""

from __future__ import annotations

import fcntl
import functools
import http.server
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from refsite.testing import passed_checks
from tests.support.paths import REPO

if TYPE_CHECKING:
    from selenium.webdriver.remote.webdriver import WebDriver


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


#: What the built site is made of: its digest names the build, so an unchanged tree is not
#: built again (apidocs/ is written by the build itself, from src/ and tooling/).
SITE_INPUTS = ("conf.py", "docs", "snippets", "src", "tooling")
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
