"""The site is built once per state of its inputs (``refsite.site_builds``, ``docs/build.py``):
the browser tests' build is what ``make html`` copies afterwards."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from refsite import site_builds
from tests.support.paths import REPO


def _load_build_script():
    spec = importlib.util.spec_from_file_location("docs_build", REPO / "docs" / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _tree(root: Path) -> Path:
    for name in site_builds.SITE_INPUTS:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
    (root / "conf.py").write_text("project = 'x'\n")
    (root / "docs" / "en").mkdir(parents=True)
    (root / "docs" / "en" / "index.md").write_text("# Home\n")
    return root


def test_the_digest_follows_the_pages_and_not_what_the_build_writes(tmp_path):
    root = _tree(tmp_path)
    first = site_builds.site_digest(root)
    (root / "docs" / "en" / "apidocs").mkdir()
    (root / "docs" / "en" / "apidocs" / "x.rst").write_text("written by the build\n")
    (root / "docs" / "__pycache__").mkdir()
    (root / "docs" / "__pycache__" / "build.pyc").write_bytes(b"\0")
    assert site_builds.site_digest(root) == first
    (root / "docs" / "en" / "index.md").write_text("# Home, edited\n")
    assert site_builds.site_digest(root) != first


def test_a_second_build_of_the_same_inputs_is_a_copy(tmp_path, monkeypatch, capsys):
    build = _load_build_script()
    made = []

    def fake_build(out: Path, extra: list[str]) -> bool:
        made.append(out)
        (out / "en").mkdir(parents=True)
        (out / "en" / "index.html").write_text("<p>built</p>")
        return True

    monkeypatch.setattr(build, "build_site", fake_build)
    cache = tmp_path / "site-cache" / "0123"
    assert build.cached_build(cache, tmp_path / "html")
    assert build.cached_build(cache, tmp_path / "again")
    assert made == [cache]
    assert (tmp_path / "again" / "en" / "index.html").read_text() == "<p>built</p>"
    assert "nothing changed since the build" in capsys.readouterr().out


def test_a_failed_build_is_not_reused(tmp_path, monkeypatch):
    build = _load_build_script()
    made = []
    monkeypatch.setattr(build, "build_site", lambda out, extra: made.append(out) or False)
    cache = tmp_path / "site-cache" / "0123"
    assert not build.cached_build(cache, cache)
    assert not build.cached_build(cache, cache)
    assert made == [cache, cache]


def test_changed_tooling_reads_every_page_again(tmp_path):
    # Sphinx re-reads a changed page, not one whose extension changed: the doctrees it keeps
    # between builds belong to one state of the code.
    root = _tree(tmp_path)
    (root / "tooling").mkdir()
    (root / "tooling" / "directive.py").write_text("TEXT = 'old'\n")
    first = site_builds.doctrees_dir(root)
    (root / "docs" / "en" / "index.md").write_text("# Home, edited\n")
    assert site_builds.doctrees_dir(root) == first
    (root / "tooling" / "directive.py").write_text("TEXT = 'new'\n")
    assert site_builds.doctrees_dir(root) != first


def test_a_failed_build_leaves_no_doctrees_that_would_hide_its_warnings(tmp_path, monkeypatch):
    # Sphinx reads again only pages that changed: with the failed build's doctrees kept, a
    # second build of the same inputs read nothing, warned about nothing and passed.
    build = _load_build_script()
    root = _tree(tmp_path / "checkout")
    monkeypatch.setattr(build, "ROOT", root)
    doctrees = site_builds.doctrees_dir(root)

    def failing_build(out: Path, extra: list[str]) -> bool:
        out.mkdir(parents=True)
        doctrees.mkdir(parents=True, exist_ok=True)
        (doctrees / "index.doctree").write_bytes(b"read once")
        return False

    monkeypatch.setattr(build, "build_site", failing_build)
    assert not build.cached_build(tmp_path / "site-cache" / "0123", tmp_path / "html")
    assert not doctrees.exists()
