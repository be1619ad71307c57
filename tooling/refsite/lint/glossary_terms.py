"""One Chinese term per concept: a rendering that the glossary lists as not used (its "不用"
column) does not appear in the Chinese pages or in the snippets' Chinese comments.

The glossary (``docs/zh/glossary.md``) is the rule: each row of a table with a third column
gives an English term, its Chinese term(s) and the renderings not used for it. A rejected
rendering is looked for in one of two ways:

- **everywhere**, when it means nothing else (聚合 for gather, 随机种子 for seed): in every line of
  ``docs/zh/**/*.md`` (the glossary's own table rows excepted) and in every Chinese value of
  ``snippets/**/*.zh.toml``;
- **against the English**, when it is itself the Chinese term of another row (步长 is the term
  for a step, 截断 for truncate): only in a ``.zh.toml`` value whose English original (the
  docstring's ``en``, or the comment's key) names the row's English term, and in a page line
  that names that English term itself (`stride`, ``torch.clamp``). Elsewhere the word may be
  right, and only a reader can tell.

The English glossary (``docs/en/glossary.md``) must list the same rejected renderings for the same
terms (:func:`glossaries_differ`). ``tests/lint/test_glossary_terms.py`` runs the check on the real
tree and on planted texts, both ways; ``python -m refsite.lint.glossary_terms`` runs it on the
checkout.
"""

from __future__ import annotations

import re
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

#: The glossaries, relative to the docs root.
ZH_GLOSSARY = Path("zh") / "glossary.md"
EN_GLOSSARY = Path("en") / "glossary.md"
#: The header of the rejected column, per language.
REJECTED_HEADER = {"zh": "不用", "en": "Not used"}
#: Separators between several terms in one cell (the Chinese glossary writes 、 and ；).
_SPLIT = re.compile(r"[、；;,，]")
_PARENS = re.compile(r"[（(][^）)]*[）)]")


@dataclass(frozen=True)
class Term:
    english: str  # the English cell, as written
    accepted: tuple[str, ...]  # the Chinese term(s)
    rejected: tuple[str, ...]  # renderings not used

    @property
    def keywords(self) -> tuple[str, ...]:
        """The English words of the row, without qualifiers: "clamp, clip (to a range)" gives
        clamp and clip."""
        return tuple(w.strip().lower() for w in _SPLIT.split(_PARENS.sub("", self.english)) if w.strip())

    def names_english(self, text: str) -> str | None:
        """The English word of this row that ``text`` names (clamp in clamped, `torch.clamp`;
        stride in strides), or None."""
        for word in self.keywords:
            if re.search(r"(?<![A-Za-z])" + re.escape(word), text, re.IGNORECASE):
                return word
        return None


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def _terms(cell: str) -> tuple[str, ...]:
    return tuple(t.strip() for t in _SPLIT.split(_PARENS.sub("", cell)) if t.strip())


def read_glossary(text: str, lang: str = "zh") -> list[Term]:
    """Every row of the tables that have a rejected column."""
    terms: list[Term] = []
    rejected_column = None
    for line in text.splitlines():
        if not line.startswith("|"):
            rejected_column = None
            continue
        cells = _cells(line)
        if REJECTED_HEADER[lang] in cells:
            rejected_column = cells.index(REJECTED_HEADER[lang])
        elif rejected_column is not None and not set(cells[0]) <= {"-", " "}:
            rejected = cells[rejected_column] if rejected_column < len(cells) else ""
            terms.append(Term(cells[0], _terms(cells[1]), _terms(rejected)))
    return terms


@dataclass(frozen=True)
class Rule:
    variant: str
    term: Term
    against_english: bool  # the variant is another row's term: check only against the English


def rules(terms: list[Term]) -> list[Rule]:
    accepted = {t: term for term in terms for t in term.accepted}
    return [Rule(variant, term, variant in accepted and accepted[variant] is not term)
            for term in terms for variant in term.rejected]


def _finding(rule: Rule, where: str, english: str = "") -> str:
    how = f" (the English names {rule.term.names_english(english)!r})" if rule.against_english else ""
    return (f"{where}: {rule.variant!r} is not used for {rule.term.english!r}{how}; "
            f"write {'、'.join(rule.term.accepted)} (docs/zh/glossary.md)")


_CODE_SPAN = re.compile(r"`+[^`]*`+")


def occurs(variant: str, text: str) -> bool:
    """Whether ``variant`` is in the prose of ``text``: code spans left out, and an English word
    (kernel) only as a whole word (not in ``kernel_size``)."""
    prose = _CODE_SPAN.sub(" ", text)
    if re.fullmatch(r"[A-Za-z ]+", variant):
        return re.search(rf"(?<![A-Za-z_]){re.escape(variant)}(?![A-Za-z_])", prose) is not None
    return variant in prose


def check_page(text: str, rules_: list[Rule], name: str, *, glossary: bool = False) -> list[str]:
    """Findings in one Chinese page, out of code (fenced blocks and spans); the glossary's own
    table rows name the variants and are skipped."""
    found = []
    fenced = False
    for number, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
            continue
        if fenced or (glossary and line.startswith("|")):
            continue
        for rule in rules_:
            if occurs(rule.variant, line) and (not rule.against_english or rule.term.names_english(line)):
                found.append(_finding(rule, f"{name}:{number}", line))
    return found


def translation_pairs(text: str) -> list[tuple[str, str]]:
    """(English, Chinese) pairs of a ``.zh.toml``: the docstring, then each comment."""
    data = tomllib.loads(text)
    pairs = []
    if "docstring" in data:
        pairs.append((data["docstring"].get("en", ""), data["docstring"].get("zh", "")))
    pairs += list(data.get("comments", {}).items())
    return pairs


def check_translation(text: str, rules_: list[Rule], name: str) -> list[str]:
    """Findings in the Chinese values of one ``.zh.toml`` (the English keys are not looked at)."""
    found = []
    for english, chinese in translation_pairs(text):
        for rule in rules_:
            if occurs(rule.variant, chinese) and (not rule.against_english or rule.term.names_english(english)):
                found.append(_finding(rule, f"{name}: {english[:60]!r}", english))
    return found


def check_tree(docs: Path, snippets: Path) -> list[str]:
    """Findings in the Chinese pages under ``docs`` and the ``.zh.toml`` files under ``snippets``."""
    rules_ = rules(read_glossary((docs / ZH_GLOSSARY).read_text(encoding="utf-8")))
    found = []
    for page in sorted((docs / "zh").rglob("*.md")):
        rel = page.relative_to(docs).as_posix()
        if "apidocs" in page.relative_to(docs).parts:
            continue
        found += check_page(page.read_text(encoding="utf-8"), rules_, rel,
                            glossary=page.name == "glossary.md" and page.parent == docs / "zh")
    for toml in sorted(snippets.rglob("*.zh.toml")):
        found += check_translation(toml.read_text(encoding="utf-8"), rules_,
                                   toml.relative_to(snippets.parent).as_posix())
    return found


def _same_key(english: str) -> str:
    """The English cell as both glossaries write it (the Chinese one separates with ；)."""
    return re.sub(r"\s+", "", english.replace("；", ";"))


def glossaries_differ(docs: Path) -> list[str]:
    """The rows whose rejected renderings differ between the Chinese and the English glossary."""
    zh = {_same_key(t.english): t.rejected for t in read_glossary((docs / ZH_GLOSSARY).read_text(encoding="utf-8"))}
    en = {_same_key(t.english): t.rejected for t in read_glossary((docs / EN_GLOSSARY).read_text(encoding="utf-8"), "en")}
    return [f"docs/{ZH_GLOSSARY.as_posix()} and docs/{EN_GLOSSARY.as_posix()} differ on {key!r}: "
            f"{zh.get(key)} against {en.get(key)}" for key in sorted(zh.keys() | en.keys()) if zh.get(key) != en.get(key)]


def main(argv: list[str] | None = None) -> int:
    from refsite import project
    root = project.root()
    problems = glossaries_differ(root / "docs") + check_tree(root / "docs", root / "snippets")
    print("\n".join(problems) or "no rejected rendering in the Chinese pages and comments")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
