"""``{gpu-variants}``: the GPU runners page's table of every GPU variant and whether it is
captured, made from the snippets' headers and records at each build."""

from __future__ import annotations

import json

import pytest
from sphinx.testing.util import SphinxTestApp

from tests.support.records import record_all_cpu, record_by_running
from tests.support.sphinx_builds import html, warnings

EXTENSIONS = ["myst_parser", "refsite.sphinxext.verified_snippets", "refsite.sphinxext.gpu_variants"]


def table_rows(app: SphinxTestApp) -> list[list[str]]:
    table = html(app).select_one("table.vs-gpu-variants")
    return [[cell.get_text(strip=True) for cell in row.select("td")] for row in table.select("tbody tr")]


@pytest.mark.sphinx("html", testroot="snippet", srcdir="gpu-variants", confoverrides={"extensions": EXTENSIONS})
def test_every_gpu_variant_is_listed_with_what_captured_it(app: SphinxTestApp) -> None:
    snippets = app.srcdir / "snippets"
    record_all_cpu(snippets)
    record_by_running(snippets / "pair.py", "nccl-cuda-2", root=snippets)  # names TEST_GPU
    with (app.srcdir / "index.md").open("a") as index:
        index.write("\n```{gpu-variants}\n```\n")
    app.build()
    assert warnings(app) == []
    assert table_rows(app) == [
        ["pair.py", "nccl-cuda-2", "2", "1× Test GPU, torch 2.15.0+test, 2026-01-02"],
        ["single.py", "cuda", "1", "not yet"],
    ]
    counts = html(app).select_one("table.vs-gpu-variants").find_previous("p").get_text()
    assert counts == "2 GPU variants: 1 captured, 1 not yet (1 of these need 1 GPU, 0 need 2 or more)."


@pytest.mark.sphinx("html", testroot="snippet", srcdir="gpu-variants-old", confoverrides={"extensions": EXTENSIONS})
def test_a_record_of_another_torch_or_without_its_gpu_is_shown_as_it_is(app: SphinxTestApp) -> None:
    snippets = app.srcdir / "snippets"
    record_all_cpu(snippets)
    path = record_by_running(snippets / "single.py", "cuda", root=snippets)
    data = json.loads(path.read_text())
    del data["gpu"]
    path.write_text(json.dumps({**data, "format": 1, "torch": "2.11.0+cu130"}))  # as written before format 2
    stale = record_by_running(snippets / "pair.py", "nccl-cuda-2", root=snippets)
    (snippets / "pair.py").write_text((snippets / "pair.py").read_text() + "\n# edited since\n")
    with (app.srcdir / "index.md").open("a") as index:
        index.write("\n```{gpu-variants}\n```\n")
    app.build()
    rows = table_rows(app)
    assert ["single.py", "cuda", "1", "GPU not named, torch 2.11.0+cu130"] in rows
    assert ["pair.py", "nccl-cuda-2", "2", "not yet"] in rows, stale  # a stale record captures nothing
