"""Writing the API ledger (:mod:`refsite.ledger`): an entry drafted for each public name it lacks,
and reason entries turned into shown ones once an embedded snippet uses the name. The command
line is :mod:`refsite.lint.api_ledger`'s (``--draft``, ``--update``); the check is there too.
"""

from __future__ import annotations

import re
import warnings
from pathlib import Path

from refsite.languages import LANGUAGES
from refsite.ledger import Entry, Namespace
from refsite.lint.api_names import import_name, kind_of, public_names, snippet_uses
from refsite.lint.pages import page_embeds
from refsite.signature_pages import block_names, blocks
from refsite.snippets import snippet_paths


def draft(root: Path, namespaces: list[Namespace]) -> dict[str, list[str]]:
    """For each ledger file, a TOML line for every public name it lacks."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return _draft(root, namespaces)


def _pages(root: Path) -> dict[str, str]:
    """The first page (of the first language) that embeds each snippet."""
    pages: dict[str, str] = {}
    for page, snippets in page_embeds(root / "docs")[next(iter(LANGUAGES))].items():
        for snippet in snippets:
            pages.setdefault(snippet, page)
    return pages


def _showing_snippets(root: Path, probe: Entry, section: str, pages: dict[str, str],
                     all_snippets: list[Path]) -> list[str]:
    """The embedded snippets that show ``probe``, best page first: they use the name, and for a
    member their page (of the member's section) names it in code (:func:`_mentions`)."""
    users = [p.relative_to(root / "snippets").as_posix() for p in all_snippets if snippet_uses(p, probe)]
    return sorted((u for u in users if u in pages and _mentions(root, pages[u], probe, section)),
                  key=lambda u: _preference(root, pages[u], probe.name, section))


def _line(root: Path, probe: Entry, kind: str, section: str, pages: dict[str, str],
          all_snippets: list[Path]) -> str:
    """The TOML line of an entry: shown where an embedded snippet shows it, else not-yet."""
    shown = _showing_snippets(root, probe, section, pages, all_snippets)
    if shown:
        page = pages[shown[0]]
        same = [u for u in shown if pages[u] == page][:3]
        return f'{_key(probe.key)} = {{ kind = "{kind}", page = "{page}", snippets = {_list(same)} }}'
    return f'{_key(probe.key)} = {{ kind = "{kind}", reason = "not-yet" }}'


def _draft(root: Path, namespaces: list[Namespace]) -> dict[str, list[str]]:
    pages, all_snippets = _pages(root), snippet_paths(root / "snippets")
    lines: dict[str, list[str]] = {}
    for ns in namespaces:
        listed = {e.key for e in ns.entries}
        for name, obj in sorted(public_names(ns, namespaces).items()):
            if name in listed:
                continue
            probe = Entry(ns.namespace, name, "data", in_class=ns.names_from == "members")
            kind = kind_of(obj if obj is not None else import_name(probe.name), probe.member)
            lines.setdefault(ns.file, []).append(_line(root, probe, kind, ns.section, pages, all_snippets))
    return lines


def update(root: Path, namespaces: list[Namespace]) -> list[str]:
    """Rewrite, in place, each entry with a reason (other than ``hardware``) that an embedded
    snippet now uses as shown (the check would refuse the reason); the entries changed."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pages, all_snippets = _pages(root), snippet_paths(root / "snippets")
        changed = []
        for ns in namespaces:
            path = root / ns.file
            text = path.read_text(encoding="utf-8")
            for entry in ns.entries:
                if entry.shown or entry.reason == "hardware":
                    continue
                line = _line(root, entry, entry.kind, ns.section, pages, all_snippets)
                if "not-yet" in line:
                    continue
                old = re.compile(rf'^{re.escape(_key(entry.key))} = \{{.*\}}$', re.MULTILINE)
                text, count = old.subn(line.replace("\\", "\\\\"), text, count=1)
                if count:
                    changed.append(entry.name)
            path.write_text(text, encoding="utf-8")
        return changed


def _page_text(root: Path, page: str) -> str:
    """The page's text in the first language (the draft names pages from it)."""
    return (root / "docs" / next(iter(LANGUAGES)) / f"{page}.md").read_text(encoding="utf-8")


def _declares(text: str, name: str) -> bool:
    """Whether a signature block of the page ``text`` declares ``name``."""
    return any(name in block_names(body) for _line, body in blocks(text))


def _preference(root: Path, page: str, name: str, section: str) -> tuple[bool, bool]:
    """Sort key for the page a draft entry names: one whose signature block declares the name
    first (the site anchors the object there), then one of the namespace's own section."""
    return (not _declares(_page_text(root, page), name), not page.startswith(section))


def _mentions(root: Path, page: str, probe: Entry, section: str) -> bool:
    """Whether ``page``, of the member's own section, names it in code (```x.view(...)```,
    ```view```; a subscript for ``__getitem__``): a snippet's use alone is no evidence for a
    member, whose owner is not inferred. Any other name needs no mention. A draft is reviewed
    before it is committed all the same."""
    if not probe.member:
        return True
    if not page.startswith(section + "/"):
        return False
    text = _page_text(root, page)
    if _declares(text, probe.name):
        return True
    short = probe.key.rpartition(".")[2]
    if short == "__getitem__":
        return re.search(r"`[^`\n]*\w\[[^`\n]*\]`", text) is not None
    return re.search(rf"`(?:[^`\n]*\.)?{re.escape(short)}\b[^`\n]*`", text) is not None


def _key(name: str) -> str:
    return name if re.fullmatch(r"[A-Za-z0-9_-]+", name) else f'"{name}"'


def _list(items: list[str]) -> str:
    return "[" + ", ".join(f'"{i}"' for i in items) + "]"
