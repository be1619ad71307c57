"""An incremental build (Sphinx's environment reused, as ``make html`` does) shows on the
aggregate pages what changed since the last build: a CPU record, a GPU record captured for the
first time, and a compat measurement (``refsite.sphinxext.aggregate_pages``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from sphinx.testing.util import SphinxTestApp

from refsite import snippets
from refsite.snippets import compat_results
from refsite.sphinxext import STATIC
from tests.support.records import record_all_cpu, record_by_running, write_outputs
from tests.support.sphinx_builds import html

CONF = {"extensions": ["myst_parser", "refsite.sphinxext.verified_snippets", "refsite.sphinxext.gpu_variants"],
        "verified_snippets_compat_dir": "measurements/compat",
        # As conf.py has them, so that the second build finds the configuration unchanged (an
        # extension puts STATIC on the path at builder-inited) and reads only what is outdated.
        "html_static_path": [str(STATIC)], "html_theme": "alabaster"}
#: Pages of their own: the index embeds the snippets, and so is read again when a record changes;
#: and each page is read again whenever one of its noted files changes.
PAGES = {"compat": "# Compat\n\n```{compat-table} .\n```\n", "gpu": "# GPU\n\n```{gpu-variants}\n```\n"}


def measure(folder: Path, root: Path, results: dict[tuple[str, str], str]) -> None:
    """torch 2.4.1's file: ``(snippet, variant) -> result``, on the code and record of now."""
    variants = {}
    for (rel, variant_id), result in results.items():
        spec = snippets.read_spec(root / rel)
        variant = next(v for v in spec.variants if v.id == variant_id)
        record = snippets.read_record(spec.record_path(variant))
        variants[compat_results.variant_key(rel, variant_id)] = {
            "code_sha256": compat_results.code_digest(spec.path), "record_sha256": compat_results.record_digest(record),
            "compare_rules": snippets.COMPARISON_RULES, "date": "2026-11-24", "result": result,
            **({"diff": ["-a", "+b"]} if result == "differs" else {})}
    folder.mkdir(parents=True, exist_ok=True)
    compat_results.write_run(folder / "torch-2.4.1.json", compat_results.measurement(
        "2.4.1", torch_build="2.4.1+cpu", python="3.11.7", date="2026-11-24", machine="test",
        command="make compat", install={"ok": True, "seconds": 1.0}, variants=variants))


def rows(app: SphinxTestApp, page: str, css: str) -> list[list[str]]:
    table = html(app, page).select_one(css)
    return [[cell.get_text(strip=True) for cell in row.select("td")] for row in table.select("tbody tr")]


@pytest.mark.sphinx("html", testroot="snippet", srcdir="incremental-aggregates", confoverrides=CONF)
def test_a_second_build_shows_new_records_and_measurements(app: SphinxTestApp, make_app) -> None:
    root = app.srcdir / "snippets"
    folder = app.srcdir / "measurements" / "compat"
    record_all_cpu(root)
    measure(folder, root, {("pair.py", "gloo-cpu-2"): "same", ("single.py", "cpu"): "same"})
    for name, text in PAGES.items():
        (app.srcdir / f"{name}.md").write_text(text)
    with (app.srcdir / "index.md").open("a") as index:
        index.write("\n```{toctree}\ncompat\ngpu\n```\n")
    app.build()
    assert rows(app, "compat", "table.vs-compat-table") == [["pair.py [gloo-cpu-2]", "✓", "✓"],
                                                            ["single.py [cpu]", "✓", "✓"]]
    assert ["single.py", "cuda", "1", "not yet"] in rows(app, "gpu", "table.vs-gpu-variants")

    # A CPU record made again, and a GPU variant captured for the first time.
    write_outputs(root / "pair.py", "gloo-cpu-2", ("rank 0 changed\n", "rank 1 changed\n"), root=root)
    record_by_running(root / "single.py", "cuda", root=root)  # on a (test) GPU
    second = make_app("html", srcdir=app.srcdir, confoverrides=CONF)
    second.build()
    # pair.py's 2.4.1 result was measured on the record before: there is none for this one.
    assert rows(second, "compat", "table.vs-compat-table") == [["pair.py [gloo-cpu-2]", "✓", "–"],
                                                               ["single.py [cpu]", "✓", "✓"]]
    assert (["single.py", "cuda", "1", "1× Test GPU, torch 2.15.0+test, 2026-01-02"]
            in rows(second, "gpu", "table.vs-gpu-variants"))

    # A compat measurement made again.
    measure(folder, root, {("single.py", "cpu"): "differs"})
    third = make_app("html", srcdir=app.srcdir, confoverrides=CONF)
    third.build()
    assert rows(third, "compat", "table.vs-compat-table") == [["pair.py [gloo-cpu-2]", "✓", "–"],
                                                              ["single.py [cpu]", "✓", "Δ"]]
