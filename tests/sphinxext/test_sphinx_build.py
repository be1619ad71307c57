"""The site's builds run Sphinx through :mod:`refsite.sphinxext.sphinx_build`: the same
``sphinx-build`` command line, with the collector's thresholds set before Sphinx starts."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from refsite import site_builds
from refsite.sphinxext import sphinx_build


def test_the_site_build_runs_sphinx_with_the_thresholds(tmp_path: Path) -> None:
    command = site_builds.sphinx_command("en", tmp_path / "out", [], tmp_path)
    assert command[1:3] == ["-m", "refsite.sphinxext.sphinx_build"], command
    src = tmp_path / "src"
    src.mkdir()
    # conf.py runs inside the build: it sees the thresholds the build runs with
    (src / "conf.py").write_text("import gc\nprint('thresholds', gc.get_threshold())\n")
    (src / "index.rst").write_text("Hello\n=====\n")
    done = subprocess.run([sys.executable, "-m", "refsite.sphinxext.sphinx_build", "-W", "-b", "html",
                           str(src), str(tmp_path / "html")], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"thresholds {sphinx_build.THRESHOLDS}" in done.stdout, done.stdout
    assert "Hello" in (tmp_path / "html" / "index.html").read_text()
