"""No typed torch version in the pages' prose but the pinned one.

A version note ("renamed in torch 2.13", "the default since torch 2.6", "torch < 1.6 cannot read
it") is a claim about releases the records were not made with. In prose it is either shown by a
role that reads the compat measurement files (``{runs-since}``, ``{same-since}``: see
``refsite.sphinxext.compat_roles``), or it names the pinned release (what the records themselves
show). When the pin moves, every note that names the old pin is reported here, so each one is
checked again or rewritten. Fenced blocks, code spans, roles and links are not prose.
"""

from __future__ import annotations

import re
from pathlib import Path

from refsite.lint.prose_outputs import _LINK, _OTHER_ROLE, _SPAN, LANGUAGES, paragraphs
from refsite import project

ROOT = project.root()
#: A torch release named in prose: after "torch"/"PyTorch" (``torch 2.13``, ``torch < 1.6``), or
#: after a word of history (``since 2.0``, ``before 1.10``, ``in 2.13``, ``2.13 renamed``).
_RELEASE = r"([0-2]\.(?:0|[1-9]\d?))(?:\.\d+)?(?![\d.]*\d)"
_AFTER_TORCH = re.compile(r"\b(?:py)?torch\s*(?:[<>]=?\s*|v)?" + _RELEASE, re.IGNORECASE)
_AFTER_WORD = re.compile(r"\b(?:since|before|until|up to|from|after|in|by)\s+" + _RELEASE + r"(?!\s*(?:s|ms|%|x|GB|GiB|MB)\b)")
_BEFORE_VERB = re.compile(r"(?<![\d.])" + _RELEASE + r"\s+(?:renamed|made|switched|added|removed|deprecated|changed|introduced)\b")


def pinned_minor() -> str:
    """``2.15``, from the Makefile's ``TORCH ?=`` (the one place the pin is written)."""
    return ".".join(project.pinned_torch(ROOT).split(".")[:2])


def typed_versions(text: str) -> list[str]:
    """Every torch release a prose text names, roles, code and links left out."""
    prose = text
    for not_prose in (_OTHER_ROLE, _SPAN, _LINK):  # roles first: a role's argument is a code span
        prose = not_prose.sub(" ", prose)
    return [m.group(1) for pattern in (_AFTER_TORCH, _AFTER_WORD, _BEFORE_VERB) for m in pattern.finditer(prose)]


def check_docs(docs: Path, pinned: str) -> list[str]:
    """``page:line: torch X named in prose`` for every release other than ``pinned``."""
    problems = []
    for lang in LANGUAGES:
        for page in sorted((docs / lang).rglob("*.md")):
            for number, text in paragraphs(page.read_text(encoding="utf-8")):
                for version in typed_versions(text):
                    if version != pinned:
                        problems.append(f"{page.relative_to(docs)}:{number}: torch {version} is named in "
                                        f"prose; show it with {{runs-since}} or {{same-since}} from the compat "
                                        f"results, name the pinned torch {pinned}, or drop the version")
    return problems
