"""Chinese docstrings and comments of the snippets (``<stem>.zh.toml``), checked four ways.

- The Chinese file is the same program: once comments and the module docstring are set aside,
  its token stream equals the English one, and its header declares the same run.
- Every snippet with an English docstring or comment has a complete, current translation.
- The Chinese file prints exactly the recorded output of every CPU variant: run through the
  harness here, or, for a ``torchrun`` snippet, copied alone and launched by its ``Run:`` line
  (``tests/testing/test_torchrun.py``: that one launch checks both).
- A changed English comment fails the doc build, with a warning naming snippet and comment.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from sphinx.testing.util import SphinxTestApp

from refsite.snippets import localized
from refsite import snippets
from refsite.testing.snippet_runs import cpu_variants, harness_problem, run_variant
from tests.support.paths import REPO as ROOT
from tests.support.records import record_by_running
from tests.support.sphinx_builds import warnings
from refsite.testing import machine


SNIPPETS = snippets.snippet_paths(ROOT / "snippets")
CPU_VARIANTS = [
    pytest.param(spec.path, variant, id=f"{spec.path.relative_to(ROOT / 'snippets').as_posix()}[{variant.id}]",
                 marks=[pytest.mark.slow] if spec.starts_processes else [])
    for spec, variant in cpu_variants(ROOT / "snippets") if not spec.torchrun
]


def rel(path: Path) -> str:
    return path.relative_to(ROOT / "snippets").as_posix()


def write_localized(snippet: Path, directory: Path) -> Path:
    """The Chinese file of ``snippet``, written under its own name into ``directory``."""
    target = directory / snippet.name
    target.write_text(localized.localize(snippet).text, encoding="utf-8")
    return target


# --- the same program ------------------------------------------------------------------------


@pytest.mark.parametrize("snippet", SNIPPETS, ids=rel)
def test_chinese_file_has_the_same_code_tokens(snippet: Path, tmp_path: Path) -> None:
    english = snippet.read_text(encoding="utf-8")
    chinese = localized.localize(snippet).text
    assert localized.code_tokens(chinese) == localized.code_tokens(english)
    spec, zh_spec = snippets.read_spec(snippet), snippets.read_spec(
        write_localized(snippet, tmp_path))
    assert (zh_spec.run, zh_spec.variants, zh_spec.timeout) == (
        spec.run, spec.variants, spec.timeout)


def without_prose(source: str) -> str:
    """``source`` with every comment and the docstring literal cut out (a marker left instead)."""
    pieces, last = [], 0
    for start, end in localized.prose_spans(source):
        pieces += [source[last:start], "\x00"]
        last = end
    return "".join(pieces) + source[last:]


@pytest.mark.parametrize("snippet", SNIPPETS, ids=rel)
def test_everything_but_comments_and_docstring_is_byte_identical(snippet: Path) -> None:
    english = snippet.read_text(encoding="utf-8")
    chinese = localized.localize(snippet).text
    assert without_prose(chinese) == without_prose(english)


def test_every_snippet_is_translated() -> None:
    """Counts the snippets whose translation is missing, incomplete or stale, and names them."""
    needing = [p for p in SNIPPETS
               if any(x for x in localized.english_texts(p.read_text(encoding="utf-8")))]
    problems = {rel(p): localized.localize(p).problems for p in needing}
    lacking = {name: found for name, found in problems.items() if found}
    assert len(needing) > 0
    report = "\n".join(f"  {name}: {found[0].message}" + (f" (+{len(found) - 1} more)"
                       if len(found) > 1 else "") for name, found in lacking.items())
    assert not lacking, (f"{len(lacking)} of {len(needing)} snippets lack a complete, current "
                         f"Chinese translation:\n{report}")


def test_chinese_file_shows_chinese() -> None:
    """Each translated docstring, and some comment of each snippet with comments, is Chinese."""
    cjk = re.compile(r"[\u4e00-\u9fff]")
    english_only = []
    for snippet in SNIPPETS:
        docstring, keys = localized.english_texts(snippet.read_text(encoding="utf-8"))
        zh_doc, zh_keys = localized.english_texts(localized.localize(snippet).text)
        if (docstring and not cjk.search(zh_doc or "")) or (keys and not any(map(cjk.search, zh_keys))):
            english_only.append(rel(snippet))
    assert not english_only, f"still English on the zh pages: {english_only}"


# --- the Chinese file prints the recorded output -----------------------------------------------


@pytest.mark.parametrize("snippet, variant", CPU_VARIANTS)
def test_chinese_file_prints_the_recorded_output(snippet_server, snippet_checks, snippet: Path,
                                                 variant: snippets.Variant,
                                                 tmp_path: Path) -> None:
    # The same check as the English file's (snippet_runs), on the Chinese file, against the
    # English file's record: clean, and every rank's output as recorded. Not repeated when it
    # passed before with the same inputs (passed_checks; `make test-all`).
    spec = snippets.read_spec(snippet)
    machine.require(spec.needs)
    zh_path = write_localized(snippet, tmp_path)
    with snippet_checks.unless_passed(f"chinese-file {rel(snippet)}[{variant.id}]", Path(__file__),
                                      zh_path, spec.record_path(variant), repr(variant)):
        result = run_variant(snippet_server, snippets.read_spec(zh_path), variant)
        label = f"{rel(snippet)} (Chinese comments) [{variant.id}]"
        if problem := harness_problem(result, spec, variant, label, str(snippet)):
            pytest.fail(problem, pytrace=False)


# --- the localizer on small sources --------------------------------------------------------------


def snippet_with(tmp_path: Path, source: str, toml: str | None) -> Path:
    path = tmp_path / "demo.py"
    path.write_text(source, encoding="utf-8")
    if toml is not None:
        (tmp_path / "demo.zh.toml").write_text(toml, encoding="utf-8")
    return path


DEMO = '''\
\'\'\'Demo: sums.

Run: python demo.py
\'\'\'
x = "# not a comment"  # a comment
    # indented line
'''
DEMO_TOML = '''\
[docstring]
en = """Demo: sums.

Run: python demo.py"""
zh = """演示：求和，带 \\\\ 与 \'\'\' 。

Run: python demo.py"""

[comments]
"a comment" = "一条注释"
"indented line" = "缩进的一行"
'''


def test_localize_replaces_only_comments_and_docstring(tmp_path: Path) -> None:
    result = localized.localize(snippet_with(tmp_path, DEMO, DEMO_TOML))
    assert result.problems == ()
    assert result.text == (
        "'''演示：求和，带 \\\\ 与 '\\'' 。\n\nRun: python demo.py\n'''\n"
        'x = "# not a comment"  # 一条注释\n'
        "    # 缩进的一行\n")
    namespace: dict = {}
    exec(compile(result.text, "demo.py", "exec"), namespace)
    assert namespace["__doc__"] == "演示：求和，带 \\ 与 ''' 。\n\nRun: python demo.py\n"


def test_changed_comment_and_leftover_entry_are_reported(tmp_path: Path) -> None:
    source = DEMO.replace("# a comment", "# a changed comment")
    result = localized.localize(snippet_with(tmp_path, source, DEMO_TOML))
    kinds = sorted(p.kind for p in result.problems)
    assert kinds == ["untranslated", "unused"]
    untranslated = next(p for p in result.problems if p.kind == "untranslated")
    assert "'demo.py', line 5: comment 'a changed comment' has no translation" in (
        untranslated.message)
    assert "# a changed comment" in result.text  # left in English, not dropped


def test_changed_docstring_missing_file_and_lost_run_line(tmp_path: Path) -> None:
    changed = localized.localize(
        snippet_with(tmp_path, DEMO.replace("Demo: sums.", "Demo: sums!"), DEMO_TOML))
    assert [p.kind for p in changed.problems] == ["docstring"]
    assert "no longer the snippet's docstring" in changed.problems[0].message
    lost = localized.localize(
        snippet_with(tmp_path, DEMO, DEMO_TOML.replace('zh = """演示', 'zh = """Run: x\n演示')
                     .replace("\n\nRun: python demo.py\"\"\"\n\n[", '"""\n\n[')))
    assert any("must keep 'Run: python demo.py'" in p.message for p in lost.problems)
    (tmp_path / "demo.zh.toml").unlink()
    missing = localized.localize(tmp_path / "demo.py")
    assert [p.kind for p in missing.problems] == ["missing-file"]


def test_tool_directives_need_no_translation(tmp_path: Path) -> None:
    source = 'import os  # noqa: F401\n'
    result = localized.localize(snippet_with(tmp_path, source, "[comments]\n"))
    assert result.problems == () and result.text == source


# --- the doc build -------------------------------------------------------------------------------


def record_single(snippet: Path) -> None:
    """Run a one-process test-root snippet (plain Python) and write its expected output."""
    record_by_running(snippet, snippets.read_spec(snippet).variants[0].id, root=snippet.parent)


def page(app: SphinxTestApp) -> str:
    return (app.outdir / "index.html").read_text(encoding="utf-8")


@pytest.mark.sphinx("html", testroot="localized", srcdir="localized-zh")
def test_zh_page_shows_and_offers_the_chinese_file(app: SphinxTestApp) -> None:
    import bs4

    snippet = app.srcdir / "snippets" / "greet.py"
    record_single(snippet)
    app.build()
    assert warnings(app) == []
    html = bs4.BeautifulSoup(page(app), "html.parser")
    shown = html.select_one("div.vs-source div.highlight-python pre").get_text()
    assert shown == localized.localize(snippet).text
    assert "# 每行一句问候，" in shown and "打招呼两次" in shown
    link = html.select_one("div.vs-source a.download")["href"]
    assert link.endswith("/greet.py")
    assert (app.outdir / link).read_text(encoding="utf-8") == shown


@pytest.mark.sphinx("html", testroot="localized", srcdir="localized-en",
                    confoverrides={"language": "en"})
def test_en_page_shows_the_english_file(app: SphinxTestApp) -> None:
    snippet = app.srcdir / "snippets" / "greet.py"
    record_single(snippet)
    app.build()
    assert warnings(app) == []
    assert "# one greeting per line," in page(app) and "每行" not in page(app)


@pytest.mark.sphinx("html", testroot="localized", srcdir="localized-stale")
def test_changed_english_comment_fails_the_zh_build(app: SphinxTestApp) -> None:
    snippet = app.srcdir / "snippets" / "greet.py"
    snippet.write_text(snippet.read_text(encoding="utf-8").replace(
        "# two lines in all", "# two lines, one per word"), encoding="utf-8")
    record_single(snippet)  # the record is current: only the translation is stale
    app.build()
    found = warnings(app)
    assert len(found) == 2, found
    untranslated, unused = found
    assert "index.md:3: WARNING: snippet 'greet.py', line 8: comment 'two lines, one per word' " \
        "has no translation in greet.zh.toml (new or changed English text); fix: add it under " \
        "[comments]" in untranslated
    assert "[verified_snippets.translation]" in untranslated
    assert "greet.zh.toml translates comment 'two lines in all', which is not in the snippet " \
        "any more" in unused


def test_a_template_lists_every_english_text_to_fill_in(capsys: pytest.CaptureFixture[str]) -> None:
    import tomllib

    from refsite.snippets import translations
    from refsite.snippets.localized import english_texts

    snippet = ROOT / "snippets" / "tensors" / "arange.py"
    assert translations.main(["template", str(snippet)]) == 0
    made = tomllib.loads(capsys.readouterr().out)
    docstring, keys = english_texts(snippet.read_text(encoding="utf-8"))
    assert made["docstring"] == {"en": docstring, "zh": ""}
    assert made["comments"] == dict.fromkeys(keys, "")
