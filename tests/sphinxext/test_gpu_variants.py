"""``{gpu-variants}``: the GPU runners page's table of every GPU variant and whether it is
captured, made from the snippets' headers and records at each build."""

from __future__ import annotations

import json

import pytest
from sphinx.testing.util import SphinxTestApp

from refsite.measurements import gpu_captures, provenance
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


@pytest.mark.sphinx("html", testroot="snippet", srcdir="gpu-variants-failed", confoverrides={"extensions": EXTENSIONS})
def test_a_variant_a_capture_failed_says_where_and_why(app: SphinxTestApp) -> None:
    snippets = app.srcdir / "snippets"
    record_all_cpu(snippets)
    capture = gpu_captures.GpuCapture(
        provenance.Provenance("make gpu-capture", "2.11.0+cu130", "3.12.3", "test", "2026-11-28"),
        {"model": "Test GPU", "count": 1, "driver": "1", "cuda": "13.0", "nccl": "2.28.9"},
        {"single.py [cuda]": gpu_captures.VariantCapture("failed", False, "failed", "RuntimeError: no kernel image"),
         "pair.py [nccl-cuda-2]": gpu_captures.VariantCapture("skipped", False, "skipped", "needs 2 CUDA GPU(s)")})
    folder = app.srcdir / "docs" / "measurements" / "gpu"
    folder.mkdir(parents=True)
    gpu_captures.write_capture(gpu_captures.path_for(folder, "Test GPU"), capture)
    (folder / "broken.json").write_text("{}")  # a damaged file: a warning naming it, the table stands
    with (app.srcdir / "index.md").open("a") as index:
        index.write("\n```{gpu-variants}\n```\n")
    app.build()
    assert [w for w in warnings(app) if "broken.json: not a GPU capture file" in w]
    assert table_rows(app) == [
        ["pair.py", "nccl-cuda-2", "2", "not yet"],  # skipped there: too few GPUs, nothing to say
        ["single.py", "cuda", "1", "not yet"],  # the damaged file is read first, and nothing is used
    ]
    (folder / "broken.json").unlink()
    app.build(force_all=True)
    assert table_rows(app)[1] == [
        "single.py", "cuda", "1", "not yet: failed on Test GPU with torch 2.11.0+cu130, 2026-11-28: RuntimeError: no kernel image"]
