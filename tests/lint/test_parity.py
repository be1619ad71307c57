"""The English and Chinese trees stay parallel, and every snippet is on the site.

Each ``check_*`` function takes a docs root (holding ``en/`` and ``zh/``) and returns a list of
problems, each naming the page and what differs; the tests run them on the real docs, and on
small broken trees to show that each one can fail.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from refsite import snippets
from refsite.languages import LANGUAGES
from refsite.lint.pages import embedded_snippets
from refsite.myst_pages import HEADING, LABEL, read_page
from tests.support.paths import REPO


DOCS = REPO / "docs"
SNIPPETS = REPO / "snippets"

#: Code-block languages that are Python, and the directives that show code.
_PYTHON = {"python", "python3", "py", "pycon", "ipython", "ipython3"}
_CODE_DIRECTIVES = {None, "code-block", "code", "sourcecode"}


def pages(tree: Path) -> set[str]:
    """Relative paths of the Markdown pages of one language tree (generated files excluded)."""
    return {
        p.relative_to(tree).as_posix()
        for p in tree.rglob("*.md")
        if not any(part.startswith("_") or part == "apidocs" for part in p.relative_to(tree).parts)
    }


def snippets_in(text: str) -> list[str]:
    """The snippet paths a page embeds, in order."""
    return embedded_snippets(text)


def labels_in(text: str) -> list[str]:
    """The explicit MyST labels ``(name)=`` of a page, in order."""
    return read_page(text).labels()


def _read(docs: Path, lang: str, page: str) -> str:
    return (docs / lang / page).read_text(encoding="utf-8")


def _common_pages(docs: Path) -> list[str]:
    return sorted(set.intersection(*(pages(docs / lang) for lang in LANGUAGES)))


def check_pages_exist(docs: Path) -> list[str]:
    """Every page exists in both trees."""
    found = {lang: pages(docs / lang) for lang in LANGUAGES}
    problems = []
    for lang in LANGUAGES:
        for other in LANGUAGES:
            for page in sorted(found[lang] - found[other]):
                problems.append(f"{lang}/{page} has no counterpart {other}/{page}")
    return problems


def _compare(docs: Path, what: str, extract) -> list[str]:
    problems = []
    for page in _common_pages(docs):
        seen = {lang: extract(_read(docs, lang, page)) for lang in LANGUAGES}
        if len({tuple(v) for v in seen.values()}) > 1:
            detail = "; ".join(f"{lang}: {seen[lang]}" for lang in LANGUAGES)
            problems.append(f"{page}: the {what} differ between languages ({detail})")
    return problems


def check_same_snippets(docs: Path) -> list[str]:
    """Each pair of pages embeds the same snippets in the same order."""
    return _compare(docs, "embedded snippets", snippets_in)


def check_same_labels(docs: Path) -> list[str]:
    """Each pair of pages has the same section labels in the same order."""
    return _compare(docs, "section labels", labels_in)


def check_headings_labelled(docs: Path) -> list[str]:
    """Every section heading is directly preceded by an explicit label ``(name)=``."""
    problems = []
    for lang in LANGUAGES:
        for page in sorted(pages(docs / lang)):
            lines = [line for _, line in read_page(_read(docs, lang, page)).outside]
            for before, line in zip([""] + lines, lines):
                if HEADING.match(line) and not LABEL.match(before):
                    problems.append(f"{lang}/{page}: heading {line.strip()!r} has no (label)= above it")
    return problems


def check_every_snippet_embedded(docs: Path, root: Path) -> list[str]:
    """Every snippet under ``root`` appears on some page of each language."""
    all_snippets = [p.relative_to(root).as_posix() for p in snippets.snippet_paths(root)]
    problems = []
    for lang in LANGUAGES:
        embedded = {s for page in pages(docs / lang) for s in snippets_in(_read(docs, lang, page))}
        for snippet in all_snippets:
            if snippet not in embedded:
                problems.append(f"snippets/{snippet} is not embedded in any {lang}/ page")
    return problems


def check_no_python_fences(docs: Path) -> list[str]:
    """No page shows Python in a plain code fence: examples are snippets, APIs are signatures."""
    problems = []
    for lang in LANGUAGES:
        for page in sorted(pages(docs / lang)):
            for fence in read_page(_read(docs, lang, page)).fences:
                if fence.directive in _CODE_DIRECTIVES and fence.argument.lower() in _PYTHON:
                    problems.append(
                        f"{lang}/{page}:{fence.line}: {fence.marker + fence.info!r} is a Python fence; use "
                        f"{{snippet}} for code that runs or {{signature}} for an API signature"
                    )
    return problems


CHECKS = {
    "pages_exist": check_pages_exist,
    "same_snippets": check_same_snippets,
    "same_labels": check_same_labels,
    "headings_labelled": check_headings_labelled,
    "no_python_fences": check_no_python_fences,
}


# --- the real docs ---------------------------------------------------------------------------


@pytest.mark.parametrize("check", CHECKS.values(), ids=CHECKS.keys())
def test_real_docs(check) -> None:
    problems = check(DOCS)
    assert not problems, "\n".join(problems)


def test_real_docs_embed_every_snippet() -> None:
    problems = check_every_snippet_embedded(DOCS, SNIPPETS)
    assert not problems, "\n".join(problems)


def test_real_docs_are_not_empty() -> None:
    assert pages(DOCS / "en") >= {"index.md", "tensors/creation.md", "distributed/collectives.md",
                                  "parallel/ddp.md", "reference/index.md"}
    assert "distributed/all_reduce.py" in snippets_in(_read(DOCS, "en", "distributed/collectives.md"))


# --- each check can fail ---------------------------------------------------------------------

GOOD = """\
(top)=
# Title

(part)=
## Part

```{snippet} a.py
```

```{signature}
f(x) -> int
```

```bash
python a.py
```
"""


def tree(tmp_path: Path, en: dict[str, str], zh: dict[str, str]) -> Path:
    for lang, files in (("en", en), ("zh", zh)):
        for name, text in files.items():
            path = tmp_path / lang / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    return tmp_path


def test_a_parallel_tree_passes_every_check(tmp_path: Path) -> None:
    docs = tree(tmp_path, {"index.md": GOOD}, {"index.md": GOOD.replace("Title", "标题")})
    for check in CHECKS.values():
        assert check(docs) == []


def test_a_page_missing_in_one_language_fails(tmp_path: Path) -> None:
    docs = tree(tmp_path, {"index.md": GOOD, "more/page.md": GOOD}, {"index.md": GOOD})
    assert check_pages_exist(docs) == ["en/more/page.md has no counterpart zh/more/page.md"]


def test_different_snippets_fail(tmp_path: Path) -> None:
    docs = tree(tmp_path, {"index.md": GOOD}, {"index.md": GOOD.replace("a.py\n```", "b.py\n```")})
    [problem] = check_same_snippets(docs)
    assert problem.startswith("index.md: the embedded snippets differ") and "'b.py'" in problem


def test_snippets_in_another_order_fail(tmp_path: Path) -> None:
    two = GOOD + "\n```{snippet} b.py\n```\n"
    swapped = two.replace("a.py", "X").replace("b.py", "a.py").replace("X", "b.py")
    docs = tree(tmp_path, {"index.md": two}, {"index.md": swapped})
    assert len(check_same_snippets(docs)) == 1


def test_different_labels_fail(tmp_path: Path) -> None:
    docs = tree(tmp_path, {"index.md": GOOD}, {"index.md": GOOD.replace("(part)=", "(teil)=")})
    [problem] = check_same_labels(docs)
    assert "index.md: the section labels differ" in problem and "'teil'" in problem


def test_labels_in_another_order_fail(tmp_path: Path) -> None:
    swapped = GOOD.replace("(top)=", "(X)=").replace("(part)=", "(top)=").replace("(X)=", "(part)=")
    docs = tree(tmp_path, {"index.md": GOOD}, {"index.md": swapped})
    assert len(check_same_labels(docs)) == 1


def test_a_heading_without_label_fails(tmp_path: Path) -> None:
    unlabelled = GOOD.replace("(part)=\n", "")
    docs = tree(tmp_path, {"index.md": unlabelled}, {"index.md": GOOD})
    assert check_headings_labelled(docs) == ["en/index.md: heading '## Part' has no (label)= above it"]


def test_a_label_inside_a_fence_does_not_count(tmp_path: Path) -> None:
    text = "```bash\n(fake)=\n```\n\n(top)=\n# Title\n"
    assert labels_in(text) == ["top"]


@pytest.mark.parametrize("fence", ["```python", "```py", "```pycon", "~~~python", "```{code-block} python"])
def test_a_python_fence_fails(tmp_path: Path, fence: str) -> None:
    bad = GOOD + f"\n{fence}\nprint(1)\n```\n"
    docs = tree(tmp_path, {"index.md": GOOD}, {"index.md": bad})
    [problem] = check_no_python_fences(docs)
    line = len(GOOD.splitlines()) + 2
    assert problem.startswith(f"zh/index.md:{line}: {fence!r} is a Python fence")


def test_a_python_fence_inside_a_directive_fails(tmp_path: Path) -> None:
    bad = GOOD + "\n:::{tab-item} A\n```python\nprint(1)\n```\n:::\n"
    docs = tree(tmp_path, {"index.md": GOOD}, {"index.md": bad})
    [problem] = check_no_python_fences(docs)
    assert problem.startswith(f"zh/index.md:{len(GOOD.splitlines()) + 3}: '```python' is a Python fence")


def test_a_snippet_not_embedded_fails(tmp_path: Path) -> None:
    docs = tree(tmp_path, {"index.md": GOOD}, {"index.md": GOOD})
    snippets = tmp_path / "snippets"
    (snippets / "sub").mkdir(parents=True)
    for name in ("a.py", "sub/b.py", "_helper.py"):
        (snippets / name).write_text('"""Run: python x.py"""\n', encoding="utf-8")
    assert check_every_snippet_embedded(docs, snippets) == [
        "snippets/sub/b.py is not embedded in any en/ page",
        "snippets/sub/b.py is not embedded in any zh/ page",
    ]


def test_device_records_agree_where_declared():
    from refsite.testing.snippet_runs import device_record_problems

    assert device_record_problems(SNIPPETS) == []
