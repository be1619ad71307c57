"""An incremental build (Sphinx's environment reused, as ``make html`` does) shows what changed
since the last build on every page that shows it (``refsite.sphinxext.build_inputs``): the
aggregate pages a CPU record, a GPU record captured for the first time and a compat measurement;
a snippet's page a release measured for the first time; the release chooser an example that moved
to another page; the ledger's pages a new ledger file. One small root per directive; each test
fails when its directive no longer notes what it reads (checked by removing the note)."""

from __future__ import annotations

from pathlib import Path

import pytest
from sphinx.testing.util import SphinxTestApp

from refsite import snippets
from refsite.measurements import compat_results
from refsite.sphinxext import STATIC
from tests.support.records import record_all_cpu, record_by_running, write_outputs
from tests.support.sphinx_builds import html

CONF = {"extensions": ["myst_parser", "refsite.sphinxext.verified_snippets", "refsite.sphinxext.gpu_variants",
                        "refsite.sphinxext.compat_changes"],
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


def _pages(app: SphinxTestApp, pages: dict[str, str]) -> None:
    for name, text in pages.items():
        (app.srcdir / f"{name}.md").write_text(text)
    with (app.srcdir / "index.md").open("a") as index:
        index.write("\n```{toctree}\n" + "\n".join(pages) + "\n```\n")


def compat_line(app: SphinxTestApp, page: str = "index") -> list[str]:
    return [line.get_text(" ", strip=True) for line in html(app, page).select(".vs-compat")]


@pytest.mark.sphinx("html", testroot="snippet", srcdir="incremental-new-release", confoverrides=CONF)
def test_a_snippet_page_shows_a_release_measured_for_the_first_time(app: SphinxTestApp, make_app) -> None:
    # The page notes the measurements folder, not only the files that existed when it was read.
    root = app.srcdir / "snippets"
    record_all_cpu(root)
    app.build()
    assert not any("2.4" in line for line in compat_line(app)), compat_line(app)
    measure(app.srcdir / "measurements" / "compat", root, {("single.py", "cpu"): "same"})
    second = make_app("html", srcdir=app.srcdir, confoverrides=CONF)
    second.build()
    assert any("2.4" in line for line in compat_line(second)), compat_line(second)


@pytest.mark.sphinx("html", testroot="snippet", srcdir="incremental-gpu-record", confoverrides=CONF)
def test_a_snippet_page_shows_a_gpu_record_captured_after_it_was_read(app: SphinxTestApp, make_app) -> None:
    # A record that does not exist yet is a new file in the snippet tree, not a noted file.
    root = app.srcdir / "snippets"
    record_all_cpu(root)
    app.build()
    assert "hello from cuda" not in html(app).get_text()
    record_by_running(root / "single.py", "cuda", root=root)  # on a (test) GPU
    second = make_app("html", srcdir=app.srcdir, confoverrides=CONF)
    second.build()
    assert "hello from cuda" in html(second).get_text()


@pytest.mark.sphinx("html", testroot="snippet", srcdir="incremental-chooser", confoverrides=CONF)
def test_the_chooser_links_an_example_to_the_page_that_shows_it_now(app: SphinxTestApp, make_app) -> None:
    root = app.srcdir / "snippets"
    record_all_cpu(root)
    measure(app.srcdir / "measurements" / "compat", root,
            {("single.py", "cpu"): "differs", ("pair.py", "gloo-cpu-2"): "same"})
    _pages(app, {"changes": "# Changes\n\n```{compat-changes}\n```\n", "other": "# Other\n"})
    app.build()

    def link(build: SphinxTestApp) -> list[str]:
        return [a["href"] for a in html(build, "changes").select("table.vs-compat-changes-list a")]

    assert link(app) == ["index.html"]
    # single.py moves to a page that sorts before "index"; the chooser's page itself is unchanged.
    (app.srcdir / "other.md").write_text("# Other\n\n```{snippet} single.py\n```\n")
    index = (app.srcdir / "index.md").read_text()
    (app.srcdir / "index.md").write_text(index.replace("```{snippet} single.py\n```\n", ""))
    (app.srcdir / "a_first.md").write_text("# First\n\n```{snippet} single.py\n```\n")
    (app.srcdir / "other.md").write_text("# Other\n\n```{toctree}\na_first\n```\n")
    second = make_app("html", srcdir=app.srcdir, confoverrides=CONF)
    second.build()
    assert link(second) == ["a_first.html"]


LEDGER_CONF = {**CONF, "extensions": [*CONF["extensions"], "refsite.sphinxext.api_entries"],
               "api_entries_ledger": "ledger"}
LEDGER = """namespace = "{ns}"
section = "tensors"
title = {{ en = "{ns} names", zh = "{ns} 的名称" }}
names_from = "__all__"
source = "a planted list"

[entries]
planted_{key} = {{ kind = "function", reason = "not-yet" }}
"""


@pytest.mark.sphinx("html", testroot="snippet", srcdir="incremental-ledger", confoverrides=LEDGER_CONF)
def test_the_ledger_pages_list_a_new_ledger_file(app: SphinxTestApp, make_app) -> None:
    record_all_cpu(app.srcdir / "snippets")
    (app.srcdir / "ledger").mkdir()
    (app.srcdir / "ledger" / "torch.first.toml").write_text(LEDGER.format(ns="torch.first", key="a"))
    _pages(app, {"coverage": "# Coverage\n\n```{api-coverage}\n```\n", "a_z": "# A-Z\n\n```{api-index}\n```\n"})
    app.build()

    def names(build: SphinxTestApp, page: str) -> set[str]:
        return {code.get_text() for code in html(build, page).select("code")} & {"torch.first.planted_a",
                                                                                  "torch.second.planted_b"}

    assert names(app, "coverage") == names(app, "a_z") == {"torch.first.planted_a"}
    (app.srcdir / "ledger" / "torch.second.toml").write_text(LEDGER.format(ns="torch.second", key="b"))
    second = make_app("html", srcdir=app.srcdir, confoverrides=LEDGER_CONF)
    second.build()
    assert names(second, "coverage") == names(second, "a_z") == {"torch.first.planted_a", "torch.second.planted_b"}
