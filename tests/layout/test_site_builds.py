"""The site is built once per state of its inputs (``refsite.site_builds``, which ``docs/build.py``
calls): the browser tests' build is what ``make html`` copies afterwards."""

from __future__ import annotations

from pathlib import Path

from refsite import site_builds


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
    made = []

    def fake_build(out: Path, extra: list[str], root: Path) -> bool:
        made.append(out)
        (out / "en").mkdir(parents=True)
        (out / "en" / "index.html").write_text("<p>built</p>")
        return True

    monkeypatch.setattr(site_builds, "build_site", fake_build)
    cache = tmp_path / "site-cache" / "0123"
    root = _tree(tmp_path / "checkout")
    assert site_builds.cached_build(cache, tmp_path / "html", root)
    assert site_builds.cached_build(cache, tmp_path / "again", root)
    assert made == [cache]
    assert (tmp_path / "again" / "en" / "index.html").read_text() == "<p>built</p>"
    assert "nothing changed since the build" in capsys.readouterr().out


def test_a_failed_build_is_not_reused(tmp_path, monkeypatch):
    made = []
    monkeypatch.setattr(site_builds, "build_site", lambda out, extra, root: made.append(out) or False)
    cache = tmp_path / "site-cache" / "0123"
    root = _tree(tmp_path / "checkout")
    assert not site_builds.cached_build(cache, cache, root)
    assert not site_builds.cached_build(cache, cache, root)
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
    root = _tree(tmp_path / "checkout")
    doctrees = site_builds.doctrees_dir(root)

    def failing_build(out: Path, extra: list[str], root: Path) -> bool:
        out.mkdir(parents=True)
        doctrees.mkdir(parents=True, exist_ok=True)
        (doctrees / "index.doctree").write_bytes(b"read once")
        return False

    monkeypatch.setattr(site_builds, "build_site", failing_build)
    assert not site_builds.cached_build(tmp_path / "site-cache" / "0123", tmp_path / "html", root)
    assert not doctrees.exists()
