"""The compat data on the built site: an HTML build ends by writing ``compat/v1/`` into its output
folder (``refsite.sphinxext.compat_data``), from the project's measurement files."""

from __future__ import annotations

import json

import pytest
from sphinx.testing.util import SphinxTestApp

from refsite.measurements import compat_results
from tests.support.compat_planted import write
from tests.support.records import record_all_cpu
from tests.support.sphinx_builds import warnings


@pytest.mark.sphinx("html", testroot="snippet", srcdir="snippet-compat-data")
def test_an_html_build_writes_the_compat_data(app: SphinxTestApp) -> None:
    root = app.srcdir / "snippets"
    record_all_cpu(root)
    folder = app.srcdir / compat_results.COMPAT_DIR  # where conf.py's default looks
    folder.mkdir(parents=True)
    write(folder, root, "2.4.1", {"single.py": {"result": "fails", "error_type": "ImportError", "error": "no x"}})
    app.build()
    assert warnings(app) == []
    data = app.outdir / "compat" / "v1"
    names = sorted(p.relative_to(data).as_posix() for p in data.rglob("*.json"))
    assert names == ["areas/snippets.json", "index.json", "schema/area.schema.json", "schema/index.schema.json"]
    index = json.loads((data / "index.json").read_text(encoding="utf-8"))
    assert [r["torch"] for r in index["releases"]] == ["2.4.1"]
    assert [(e["snippet"], e["variants"]) for e in index["examples"]] == [
        ("pair.py", ["gloo-cpu-2"]), ("single.py", ["cpu"])]
    area = json.loads((data / "areas" / "snippets.json").read_text(encoding="utf-8"))
    results = {v["key"]: v["results"] for v in area["variants"]}
    assert results == {
        "pair.py [gloo-cpu-2]": {"2.4.1": {"result": "unmeasured"}, "2.15.0": {"result": "same"}},
        "single.py [cpu]": {"2.4.1": {"result": "fails", "error_type": "ImportError", "error": "no x"},
                            "2.15.0": {"result": "same"}}}
