"""Reading the ```{signature}``` blocks of the pages into entries (parameter lists): what the
signature check compares with torch and what the site anchors each API object at.

What a block may hold
    One or more *entries*. An entry is ``dotted.name(PARAMS)``, optionally followed by
    ``-> RETURN``, and may run over several lines while a bracket is open or while the next
    line starts with ``->``. A ``#`` comment may follow; it is not compared. Anything else
    (an assignment, an example call with values, an indexing expression) is an error: example
    calls belong in snippets, where their output is recorded.

Abbreviations
    A parameter written ``...`` stands for zero or more real parameters left out at that
    point (and may hide a bare ``*``, so a parameter written after it may be keyword-only).
    Parameters may be left out nowhere else: a real parameter missing from the page at a
    place without ``...`` is an error. An entry that uses ``...`` must carry a ``#`` comment
    saying what it hides. (``timeout=...`` as a *default* is not an abbreviation; it is an
    error unless the default is really ``Ellipsis``.)
"""

from __future__ import annotations

import dataclasses
import inspect
import io
import re
import tokenize
from collections.abc import Iterator
from pathlib import Path

from refsite.languages import LANGUAGES
from refsite.myst_pages import read_page


_HEAD = re.compile(r"^\s*([A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)*)\s*\(")
_PARAM = re.compile(r"^(\*{0,2})([A-Za-z_]\w*)\s*(?::\s*(.+?))?\s*(?:=\s*(.+))?$", re.DOTALL)

#: Short class names the pages use in signature blocks, and what they stand for.
SHORT_NAMES = {
    "Tensor": "torch.Tensor",
    "Forkserver": "ranktest.Forkserver",
    "RunResult": "ranktest.RunResult",
}

ELLIPSIS = "..."
NO_DEFAULT = inspect.Parameter.empty
PO, PK, VP, KO, VK = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD,
                      inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.KEYWORD_ONLY,
                      inspect.Parameter.VAR_KEYWORD)


@dataclasses.dataclass
class Param:
    name: str
    kind: inspect._ParameterKind
    default: object  # page: source text of the default; real: its value; or NO_DEFAULT
    after_ellipsis: bool = False


@dataclasses.dataclass
class Entry:
    """One signature written in a block."""

    where: str  # "page:line"
    text: str
    name: str = ""
    params: list[Param | str] = dataclasses.field(default_factory=list)  # str: ELLIPSIS
    comment: str = ""




def blocks(text: str) -> list[tuple[int, str]]:
    """(line of the first body line, body) of each signature block of a page."""
    return [(fence.body_line, fence.body + "\n") for fence in read_page(text).directives("signature")]


def _split_comment(line: str) -> tuple[str, str]:
    """The code of one line and its ``#`` comment (a ``#`` inside a string is code)."""
    try:
        for tok in tokenize.generate_tokens(io.StringIO(line).readline):
            if tok.type == tokenize.COMMENT:
                return line[:tok.start[1]].rstrip(), tok.string[1:].strip()
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass
    return line.rstrip(), ""


def _scan(text: str) -> Iterator[tuple[str, int, bool]]:
    """Each character of ``text``, the number of brackets open after it, and whether it is code
    (outside a string literal; brackets in strings do not count)."""
    depth, quote = 0, None
    for ch in text:
        if quote:
            quote = None if ch == quote else quote
            yield ch, depth, False
            continue
        if ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        yield ch, depth, quote is None


def bracket_depth(text: str) -> int:
    """How many brackets are open at the end of ``text``."""
    depth = 0
    for _ch, depth, _code in _scan(text):
        pass
    return depth


def entries(body: str, where: str, first_line: int) -> list[Entry]:
    """The entries of a block body: lines joined while brackets are open or ``->`` follows."""
    out: list[Entry] = []
    lines = body.splitlines()
    i = 0
    while i < len(lines):
        if not lines[i].strip():
            i += 1
            continue
        start = i
        code, comment = _split_comment(lines[i])
        comments = [comment] if comment else []
        i += 1
        if not code.strip():  # a comment line of its own: it belongs to the entry above it
            if comment and out and start > 0 and lines[start - 1].strip():
                out[-1].comment += " " + comment
            continue
        while i < len(lines) and (bracket_depth(code) > 0 or lines[i].lstrip().startswith("->")):
            more, comment = _split_comment(lines[i])
            code += " " + more.strip()
            if comment:
                comments.append(comment)
            i += 1
        entry = Entry(f"{where}:{first_line + start}", code.strip(), comment=" ".join(comments))
        out.append(entry)
    return out


def split_top(text: str) -> list[str]:
    """``text`` split at the commas that are not inside brackets or strings."""
    parts, cur = [], ""
    for ch, depth, code in _scan(text):
        if ch == "," and depth == 0 and code:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts


def parse_params(text: str) -> list[Param | str]:
    """Parse a parameter list written as in a signature (``*size, *`` and ``start=0, end``
    are allowed, as torch documents them). Raises ValueError on anything else."""
    params: list[Param | str] = []
    kind = PK
    after_ellipsis = False
    for part in split_top(text.replace("\\*", "*")):
        if part == ELLIPSIS:
            params.append(ELLIPSIS)
            after_ellipsis = True
            continue
        if part == "/":
            for p in params:
                if isinstance(p, Param) and p.kind == PK:
                    p.kind = PO
            continue
        if part == "*":
            kind = KO
            continue
        match = _PARAM.match(part)
        if not match:
            raise ValueError(f"not a parameter: {part!r}")
        stars, name, _annotation, default = match.groups()
        if stars == "*":
            params.append(Param(name, VP, NO_DEFAULT, after_ellipsis))
            kind = KO
        elif stars == "**":
            params.append(Param(name, VK, NO_DEFAULT, after_ellipsis))
        else:
            params.append(Param(name, kind, default.strip() if default else NO_DEFAULT,
                                after_ellipsis))
    return params


def parse_entry(entry: Entry) -> None:
    """Fill ``entry.name`` and ``entry.params``; raise ValueError if it is not a signature."""
    head = _HEAD.match(entry.text)
    if not head:
        raise ValueError("not a signature (expected 'dotted.name(parameters) [-> return]'); "
                         "example code belongs in a snippet")
    start = head.end() - 1
    depth, end = 0, None
    for pos in range(start, len(entry.text)):
        depth += {"(": 1, ")": -1}.get(entry.text[pos], 0)
        if depth == 0:
            end = pos
            break
    if end is None:
        raise ValueError("unbalanced parentheses")
    rest = entry.text[end + 1:].strip()
    if rest and not rest.startswith("->"):
        raise ValueError(f"unexpected text after the parameters: {rest!r}")
    entry.name = head.group(1)
    entry.params = parse_params(entry.text[start + 1:end])


def page_entries(docs: Path) -> list[Entry]:
    """Every entry of every signature block under ``docs/<lang>``."""
    found = []
    for lang in LANGUAGES:
        for page in sorted((docs / lang).rglob("*.md")):
            rel = page.relative_to(docs).as_posix()
            for line, body in blocks(page.read_text(encoding="utf-8")):
                found += entries(body, rel, line)
    return found


def full_name(name: str) -> str:
    """``name`` with a short class name (:data:`SHORT_NAMES`) at its start spelled out."""
    first, dot, tail = name.partition(".")
    return SHORT_NAMES.get(first, first) + dot + tail


def block_names(body: str) -> set[str]:
    """The full names a signature block's body declares (entries that do not parse are the
    signature check's to report; they name nothing here)."""
    names = set()
    for entry in entries(body, "", 0):
        try:
            parse_entry(entry)
        except ValueError:
            continue
        names.add(full_name(entry.name))
    return names
