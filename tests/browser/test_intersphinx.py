"""Another Sphinx project links into this site through ``sphinx.ext.intersphinx`` and the built
``objects.inv`` (read from the built files, no network): a function, a class and a method
resolve, each to the page and anchor the index gives it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import bs4
import pytest

from refsite import ledger
from refsite.sphinxext.api_entries import node_id
from tests.support.paths import REPO

pytestmark = pytest.mark.browser

ENTRIES = {e.name: e for e in ledger.entries(ledger.read(REPO / ledger.DEFAULT_DIR))}
BASE = "https://reference.invalid/en/"
REFERENCES = {
    "func": "torch.where",
    "class": "torch.utils.data.distributed.DistributedSampler",
    "meth": "torch.Tensor.view",
}


def test_another_project_resolves_a_function_a_class_and_a_method(site: Path, tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    (src / "conf.py").write_text(
        'extensions = ["sphinx.ext.intersphinx"]\n'
        f'intersphinx_mapping = {{"ref": ({BASE!r}, {str(site / "en" / "objects.inv")!r})}}\n',
        encoding="utf-8")
    lines = [f"- :py:{role}:`{name}`" for role, name in REFERENCES.items()]
    (src / "index.rst").write_text("Links\n=====\n\n" + "\n".join(lines) + "\n", encoding="utf-8")
    # -n -W: a reference that does not resolve is an error
    done = subprocess.run([sys.executable, "-m", "sphinx", "-b", "html", "-n", "-W", "-q",
                           str(src), str(tmp_path / "out")], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    page = bs4.BeautifulSoup((tmp_path / "out" / "index.html").read_text(encoding="utf-8"), "html.parser")
    hrefs = {a.get_text().removesuffix("()"): a["href"] for a in page.select("a.reference.external")}
    for name in REFERENCES.values():
        entry = ENTRIES[name]
        assert hrefs.get(name) == f"{BASE}{entry.page}.html#{node_id(name)}", (name, hrefs)
