"""The verified_snippets extension, built on small test roots with Sphinx's test fixtures.

Expected outputs are never stored in the roots: each test runs the root's tiny snippets (plain
Python, no torch) and writes their records with :func:`tests.support.records.record_by_running`.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from sphinx.testing.util import SphinxTestApp

from refsite.sphinxext.verified_snippets import COPYBUTTON_SELECTOR
from tests.support.paths import ROOTS
from tests.support.records import record_all_cpu, record_by_running
from tests.support.sphinx_builds import html, warnings


def line_of(app: SphinxTestApp, needle: str, page: str = "index") -> int:
    """1-based line of the first line containing ``needle`` in ``page``'s source."""
    lines = (app.srcdir / f"{page}.md").read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if needle in line)


def one_warning(app: SphinxTestApp, needle: str) -> str:
    """The single warning that mentions ``needle``; it must be located at ``index.md:LINE``."""
    found = [w for w in warnings(app) if needle in w]
    assert len(found) == 1, f"expected one warning about {needle!r}, got: {warnings(app)}"
    return found[0]


def assert_located(warning: str, app: SphinxTestApp, directive_arg: str) -> None:
    line = line_of(app, "{snippet} " + directive_arg)
    assert f"index.md:{line}:" in warning, warning


# --- rendering -------------------------------------------------------------------------------


@pytest.mark.sphinx("html", testroot="snippet", srcdir="snippet-render")
def test_renders_source_commands_ranks_and_provenance(app: SphinxTestApp) -> None:
    record_all_cpu(app.srcdir / "snippets")
    app.build()
    assert warnings(app) == []
    page = html(app)
    blocks = page.select("div.vs-snippet")
    assert len(blocks) == 2
    single, pair = blocks

    source = pair.select_one("div.vs-source div.highlight-python pre").get_text()
    assert source == (app.srcdir / "snippets" / "pair.py").read_text(encoding="utf-8")
    assert pair.select_one("div.vs-source a.download")["href"].endswith("/pair.py")

    variants = pair.select("div.vs-variants > div.vs-variant")
    labels = [v.select_one(":scope > p.vs-tab-label").get_text() for v in variants]
    assert labels == ["gloo-cpu", "nccl-cuda"]
    commands = [v.select_one("div.vs-command pre").get_text().strip() for v in variants]
    assert commands == ["torchrun --nproc-per-node=2 pair.py",
                        "DEVICE=cuda BACKEND=nccl torchrun --nproc-per-node=2 pair.py"]

    gloo = variants[0]
    assert gloo.select_one("p.vs-provenance").get_text() == (
        "Recorded with torch 2.15.0+test · backend gloo · device cpu · world size 2")
    panes = gloo.select("div.vs-ranks > div.vs-rank")
    assert [p.select_one("p.vs-tab-label").get_text() for p in panes] == ["rank 0", "rank 1"]
    assert [p.select_one("pre").get_text() for p in panes] == [
        "rank 0 of 2 says hello\n", "rank 1 of 2 says hello\n"]

    cpu = single.select_one("div.vs-variant")
    assert cpu.select_one("p.vs-provenance").get_text() == (
        "Recorded with torch 2.15.0+test · device cpu · single process")
    assert cpu.select_one("pre.vs-output, div.vs-output pre").get_text() == "hello from cpu\n"
    assert cpu.select("div.vs-rank") == []


@pytest.mark.sphinx("html", testroot="snippet", srcdir="snippet-not-captured")
def test_cuda_variant_without_record_says_not_captured(app: SphinxTestApp) -> None:
    record_all_cpu(app.srcdir / "snippets")
    app.build()
    assert warnings(app) == []
    notices = [n.get_text() for n in html(app).select("div.vs-variant p.vs-notice")]
    assert notices == ["needs 1 GPU; not captured yet", "needs 2 GPUs; not captured yet"]
    # Beside each: what its output is expected to be (neither example declares "same on all
    # devices"); no GPU-runners page in this project, so no link to it.
    notes = [n.get_text() for n in html(app).select("div.vs-variant p.vs-gpu-note")]
    assert notes == ["Its output may differ from the CPU variant’s (device names, floating-point results), "
                     "so it is shown once it has been captured on GPUs. "] * 2


@pytest.mark.sphinx("html", testroot="snippet", srcdir="snippet-not-captured-same")
def test_a_gpu_variant_not_captured_says_what_to_expect_and_links_how_to_capture_it(app: SphinxTestApp) -> None:
    pair = app.srcdir / "snippets" / "pair.py"
    pair.write_text(pair.read_text().replace("Variants: gloo-cpu, nccl-cuda\n",
                                             "Variants: gloo-cpu, nccl-cuda\nOutput: same on all devices\n"))
    (app.srcdir / "distributed").mkdir()
    (app.srcdir / "distributed" / "gpu_runners.md").write_text(
        "---\norphan: true\n---\n(gpu-runners)=\n# GPU runners\n\n(gpu-runners-commands)=\n## Commands\n")
    record_all_cpu(app.srcdir / "snippets")
    app.build()
    assert warnings(app) == []
    note = html(app).select("div.vs-snippet")[1].select_one("div.vs-variant p.vs-gpu-note")
    assert note.get_text() == ("Once captured, its output should equal the gloo-cpu-2 record: the example "
                               "declares “Output: same on all devices”. How to capture it on a GPU "
                               "machine or a Slurm cluster")
    assert note.select_one("a")["href"] == "distributed/gpu_runners.html#gpu-runners-commands"


@pytest.mark.sphinx("html", testroot="snippet", srcdir="snippet-cuda-recorded")
def test_cuda_variant_with_record_shows_it(app: SphinxTestApp) -> None:
    record_all_cpu(app.srcdir / "snippets")
    record_by_running(app.srcdir / "snippets" / "pair.py", "nccl-cuda-2", root=app.srcdir / "snippets")
    app.build()
    assert warnings(app) == []
    nccl = html(app).select("div.vs-snippet")[1].select("div.vs-variant")[1]
    assert nccl.select_one("p.vs-provenance").get_text() == (
        "Recorded with torch 2.15.0+test · backend nccl · device cuda · world size 2 · "
        "on 1× Test GPU, driver 1.0, CUDA 1.1, NCCL 1.2.3")  # tests.support.records.TEST_GPU
    assert nccl.select("p.vs-notice") == []
    assert len(nccl.select("div.vs-rank")) == 2


@pytest.mark.sphinx("html", testroot="snippet", srcdir="snippet-cuda-format-1")
def test_a_gpu_record_from_before_records_named_their_gpu_says_so(app: SphinxTestApp) -> None:
    record_all_cpu(app.srcdir / "snippets")
    path = record_by_running(app.srcdir / "snippets" / "pair.py", "nccl-cuda-2", root=app.srcdir / "snippets")
    data = json.loads(path.read_text())
    del data["gpu"]
    path.write_text(json.dumps({**data, "format": 1}))  # as the runner wrote it before format 2
    app.build()
    assert warnings(app) == []
    nccl = html(app).select("div.vs-snippet")[1].select("div.vs-variant")[1]
    assert nccl.select_one("p.vs-provenance").get_text().endswith(
        "world size 2 · GPU not named (recorded before records named their GPU)")


@pytest.mark.sphinx("html", testroot="snippet", srcdir="snippet-zh",
                    # (English search index: jieba's loader leaves a file open, a ResourceWarning)
                    confoverrides={"language": "zh_CN", "html_search_language": "en"})
def test_strings_follow_the_language(app: SphinxTestApp) -> None:
    record_all_cpu(app.srcdir / "snippets")
    app.build()
    assert warnings(app) == []
    page = html(app)
    assert page.select("div.vs-variant p.vs-notice")[1].get_text() == "需要 2 块 GPU，尚未录制输出"
    assert page.select_one("a.download").get_text() == "下载 single.py"
    assert page.select_one("p.vs-provenance").get_text().startswith("录制环境：torch 2.15.0+test")


@pytest.mark.sphinx("html", testroot="snippet", srcdir="snippet-copy")
def test_copy_buttons_cover_sources_and_commands_only(app: SphinxTestApp) -> None:
    record_all_cpu(app.srcdir / "snippets")
    app.build()
    page = html(app)
    copied = page.select(COPYBUTTON_SELECTOR)
    assert copied, "no copy button on the page at all"
    assert set(map(id, copied)) == set(map(id, page.select("div.vs-source pre, div.vs-command pre")))
    assert not set(map(id, copied)) & set(map(id, page.select("div.vs-output pre, pre.vs-output")))
    signature = page.select_one("div.vs-signature")
    assert signature is not None and "highlight-python" in signature["class"]
    assert not set(map(id, copied)) & set(map(id, signature.select("pre")))


def test_download_works_for_snippets_outside_the_source_dir(
    make_app: Callable[..., SphinxTestApp], tmp_path: Path
) -> None:
    """As in the real site: docs/<lang> is the source dir and snippets/ is its sibling's sibling."""
    src = tmp_path / "docs" / "en"
    shutil.copytree(ROOTS / "test-snippet", src, ignore=shutil.ignore_patterns("snippets"))
    shutil.copytree(ROOTS / "test-snippet" / "snippets", tmp_path / "snippets")
    record_all_cpu(tmp_path / "snippets")
    app = make_app("html", srcdir=src, confoverrides={"verified_snippets_root": "../../snippets"})
    app.build()
    assert warnings(app) == []
    href = html(app).select_one("div.vs-source a.download")["href"]
    downloaded = app.outdir / href
    assert downloaded.read_bytes() == (tmp_path / "snippets" / "single.py").read_bytes()


# --- problems: each is a warning at the page and line, naming the fix ------------------------


@pytest.mark.sphinx("html", testroot="snippet-errors", srcdir="snippet-errors")
def test_missing_snippet_and_invalid_header_are_reported(app: SphinxTestApp) -> None:
    app.build()
    missing = one_warning(app, "'missing.py' not found")
    assert_located(missing, app, "missing.py")
    assert "fix: correct the path" in missing
    header = one_warning(app, "'no_run_line.py' has an invalid header")
    assert_located(header, app, "no_run_line.py")
    assert "has no 'Run:' line" in header and "fix: correct the module docstring" in header
    assert html(app).select("div.vs-snippet") == []


@pytest.mark.sphinx("html", testroot="snippet", srcdir="snippet-missing-record")
def test_missing_cpu_record_is_reported(app: SphinxTestApp) -> None:
    record_by_running(app.srcdir / "snippets" / "single.py", "cpu", root=app.srcdir / "snippets")
    app.build()
    warning = one_warning(app, "pair.py")
    assert_located(warning, app, "pair.py")
    assert "pair.gloo-cpu-2.out.json: expected output is missing" in warning
    assert "make outputs" in warning
    assert len(warnings(app)) == 1  # the CUDA variants are "not captured", not errors


@pytest.mark.sphinx("html", testroot="snippet", srcdir="snippet-unparsable")
def test_unparsable_record_is_reported(app: SphinxTestApp) -> None:
    record_all_cpu(app.srcdir / "snippets")
    path = app.srcdir / "snippets" / "single.cpu.out.json"
    path.write_text(path.read_text(encoding="utf-8")[:40], encoding="utf-8")  # cut short
    app.build()
    warning = one_warning(app, "single.cpu.out.json")
    assert_located(warning, app, "single.py")
    assert "does not parse" in warning and "make outputs" in warning
    assert "hello from cpu" not in str(html(app))


@pytest.mark.sphinx("html", testroot="snippet", srcdir="snippet-unparsable-cuda")
def test_unparsable_cuda_record_names_both_fixes(app: SphinxTestApp) -> None:
    record_all_cpu(app.srcdir / "snippets")
    (app.srcdir / "snippets" / "single.cuda.out.json").write_text("{}", encoding="utf-8")
    app.build()
    warning = one_warning(app, "single.cuda.out.json")
    assert_located(warning, app, "single.py")
    assert "expected output is malformed" in warning
    assert "'make outputs' on a machine with 1 GPU(s)" in warning
    assert "or delete single.cuda.out.json so the page shows 'not captured yet'" in warning


@pytest.mark.sphinx("html", testroot="snippet", srcdir="snippet-stale")
def test_stale_record_is_reported(app: SphinxTestApp) -> None:
    snippets = app.srcdir / "snippets"
    record_all_cpu(snippets)
    with (snippets / "pair.py").open("a", encoding="utf-8") as f:
        f.write('print("a line added after the output was recorded")\n')
    app.build()
    warning = one_warning(app, "pair.gloo-cpu-2.out.json is stale")
    assert_located(warning, app, "pair.py")
    assert "pair.py changed since this output was recorded" in warning
    assert "fix: run 'make outputs'" in warning
    assert html(app).select("div.vs-rank") == []


@pytest.mark.sphinx("html", testroot="snippet", srcdir="snippet-stale-cuda")
def test_stale_cuda_record_names_both_fixes(app: SphinxTestApp) -> None:
    snippets = app.srcdir / "snippets"
    record_by_running(snippets / "pair.py", "nccl-cuda-2", root=snippets)
    with (snippets / "pair.py").open("a", encoding="utf-8") as f:
        f.write("# edited\n")
    record_all_cpu(snippets)  # the CPU record is fresh, the CUDA one is not
    app.build()
    warning = one_warning(app, "stale")
    assert_located(warning, app, "pair.py")
    assert "pair.nccl-cuda-2.out.json is stale" in warning
    assert "on a machine with 2 GPU(s)" in warning
    assert "or delete pair.nccl-cuda-2.out.json so the page shows 'not captured yet'" in warning


@pytest.mark.sphinx("html", testroot="snippet", srcdir="snippet-require-all",
                    confoverrides={"verified_snippets_require_all": True})
def test_require_all_makes_missing_cuda_records_errors(app: SphinxTestApp) -> None:
    record_all_cpu(app.srcdir / "snippets")
    app.build()
    found = [w for w in warnings(app) if "expected output is missing" in w]
    assert len(found) == 2
    assert any("single.cuda.out.json" in w for w in found)
    assert any("pair.nccl-cuda-2.out.json" in w and "2 GPU(s)" in w for w in found)
