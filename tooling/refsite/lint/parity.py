"""The English and Chinese trees stay parallel, and every snippet is on the site.

Each ``check_*`` function takes a docs root (holding ``en/`` and ``zh/``) and returns a list of
problems, each naming the page and what differs. ``tests/lint/test_parity.py`` runs them on the
real docs, and on small broken trees to show that each one can fail.
"""

from __future__ import annotations

from pathlib import Path

from refsite import snippets
from refsite.languages import LANGUAGES
from refsite.myst_pages import embedded_snippets
from refsite.myst_pages import HEADING, LABEL, read_page

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


def page_text(docs: Path, lang: str, page: str) -> str:
    """The text of ``lang``'s ``page`` under ``docs``."""
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
        seen = {lang: extract(page_text(docs, lang, page)) for lang in LANGUAGES}
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
            lines = [line for _, line in read_page(page_text(docs, lang, page)).outside]
            for before, line in zip([""] + lines, lines):
                if HEADING.match(line) and not LABEL.match(before):
                    problems.append(f"{lang}/{page}: heading {line.strip()!r} has no (label)= above it")
    return problems


def check_every_snippet_embedded(docs: Path, root: Path) -> list[str]:
    """Every snippet under ``root`` appears on some page of each language."""
    all_snippets = [p.relative_to(root).as_posix() for p in snippets.snippet_paths(root)]
    problems = []
    for lang in LANGUAGES:
        embedded = {s for page in pages(docs / lang) for s in snippets_in(page_text(docs, lang, page))}
        for snippet in all_snippets:
            if snippet not in embedded:
                problems.append(f"snippets/{snippet} is not embedded in any {lang}/ page")
    return problems


def check_no_python_fences(docs: Path) -> list[str]:
    """No page shows Python in a plain code fence: examples are snippets, APIs are signatures."""
    problems = []
    for lang in LANGUAGES:
        for page in sorted(pages(docs / lang)):
            for fence in read_page(page_text(docs, lang, page)).fences:
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
