"""The English and Chinese trees stay parallel, and every snippet is on the site: the checks of
:mod:`refsite.lint.parity`, on the real docs and on small broken trees (each one can fail)."""

from __future__ import annotations

from pathlib import Path

import pytest

from refsite.lint.parity import (CHECKS, check_every_snippet_embedded, check_headings_labelled,
                                 check_no_python_fences, check_pages_exist, check_same_labels,
                                 check_same_snippets, labels_in, page_text, pages,
                                 snippets_in)
from tests.support.paths import REPO

DOCS = REPO / "docs"
SNIPPETS = REPO / "snippets"


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
    assert "distributed/all_reduce.py" in snippets_in(page_text(DOCS, "en", "distributed/collectives.md"))


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
