"""A snippet with its docstring and comments in another language; the code stays the same bytes.

Each snippet exists once, so the verified code cannot drift between languages. Its Chinese
docstring and comments live beside it in ``<stem>.zh.toml``::

    # Chinese docstring and comments for all_reduce.py, keyed by the exact English text they replace.
    [docstring]
    en = \"\"\"<the module docstring, exactly as ast.get_docstring() returns it>\"\"\"
    zh = \"\"\"<its Chinese version; the Run: / Variants: / GPUs: / Timeout: lines stay as in English>\"\"\"

    [comments]
    # key: the text of one English comment without the leading "# "; value: its Chinese text
    "blocks until every rank has the result" = "阻塞到每个 rank 都拿到结果为止"

:func:`localize` makes the Chinese source: it replaces the ``COMMENT`` tokens (keeping each
comment's column) and the module docstring (keeping its quotes), and leaves every other byte as
it was. What no longer matches is reported as a :class:`Problem`: a comment or docstring without
a translation (new or changed English text), and an entry that matches nothing any more. The
Sphinx side (``refsite.sphinxext.localized_source``) shows the result on the Chinese pages and
reports each problem as a build warning. This module needs neither torch nor Sphinx.
"""

from __future__ import annotations

import ast
import dataclasses
import io
import re
import tokenize
import tomllib
from pathlib import Path

from refsite.languages import LANGUAGES, SNIPPET_LANGUAGE
from refsite.snippets.spec import HEADER_KEYS

#: A whole header line (``Run: python x.py``), which a translated docstring keeps verbatim.
_HEADER_LINE = re.compile(rf"^({'|'.join(HEADER_KEYS)}):.*$", re.MULTILINE)

#: Translation files are ``<stem>.<LANGUAGE>.toml`` beside the snippet.
LANGUAGE = next(name for name in LANGUAGES if name != SNIPPET_LANGUAGE)
#: Comments read by tools (a noqa directive, ``type:``, ``pragma:``...) need no translation; one may still be given.
_DIRECTIVE = re.compile(r"^(noqa\b|type:|pragma:|fmt:|isort:)")
#: Docstring lines the harness and the site read; a translation must keep them exactly.


@dataclasses.dataclass(frozen=True)
class Problem:
    """One thing to fix in a translation file, said in full (``message``)."""

    kind: str  # "missing-file", "invalid", "docstring", "untranslated", "unused"
    message: str


@dataclasses.dataclass(frozen=True)
class Localized:
    """The localized source of one snippet, and what its translation file lacks or has too much."""

    text: str
    translations: Path
    problems: tuple[Problem, ...]


@dataclasses.dataclass(frozen=True)
class _Parts:
    """Where a snippet's docstring and comments are."""

    docstring: str | None
    docstring_token: tokenize.TokenInfo | None
    comments: tuple[tokenize.TokenInfo, ...]


def translations_path(snippet: Path, language: str = LANGUAGE) -> Path:
    """``snippets/area/x.py`` -> ``snippets/area/x.zh.toml``."""
    snippet = Path(snippet)
    return snippet.with_name(f"{snippet.stem}.{language}.toml")


def comment_key(comment: str) -> str:
    """The key of a ``COMMENT`` token: its text without the ``#`` and one following space."""
    text = comment[1:]
    return (text[1:] if text.startswith(" ") else text).rstrip()


def needs_translation(key: str) -> bool:
    """Whether a comment is prose (a tool's directive such as ``noqa: F401`` is not)."""
    return bool(key) and _DIRECTIVE.match(key) is None


def _parts(source: str) -> _Parts:
    tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    module = ast.parse(source)
    docstring = ast.get_docstring(module, clean=True)
    doc_token = None
    if docstring is not None:
        node = module.body[0]
        doc_token = next(t for t in tokens if t.type == tokenize.STRING
                         and t.start == (node.lineno, node.col_offset))
    comments = tuple(t for t in tokens if t.type == tokenize.COMMENT)
    return _Parts(docstring, doc_token, comments)


def english_texts(source: str) -> tuple[str | None, list[str]]:
    """The module docstring (or ``None``) and the comment keys that need a translation, in order."""
    parts = _parts(source)
    keys = [comment_key(t.string) for t in parts.comments]
    return parts.docstring, [k for k in keys if needs_translation(k)]


def code_tokens(source: str) -> list[tuple[int, str]]:
    """The token stream without comments and the module docstring: the code a reader runs.

    Line breaks around comments (``NL``) stay in; positions are left out, since a translated
    docstring may have another number of lines.
    """
    parts = _parts(source)
    skip = {parts.docstring_token} if parts.docstring_token else set()
    return [(t.type, t.string) for t in tokenize.generate_tokens(io.StringIO(source).readline)
            if t.type != tokenize.COMMENT and t not in skip]


def prose_spans(source: str) -> list[tuple[int, int]]:
    """Character ranges of the comments and the module docstring literal, in order."""
    parts = _parts(source)
    offsets = _offsets(source)
    tokens = [*parts.comments, *([parts.docstring_token] if parts.docstring_token else [])]
    return sorted((offsets[t.start[0]] + t.start[1], offsets[t.end[0]] + t.end[1]) for t in tokens)


def _docstring_literal(token: str, text: str) -> str:
    """``text`` as a string literal with the quotes, prefix and outer whitespace of ``token``."""
    match = re.match(r"(?is)^([a-z]*)('''|\"\"\"|'|\")(.*)\2$", token)
    if match is None:
        raise ValueError(f"not a plain string literal: {token[:40]!r}")
    prefix, quote, body = match.groups()
    lead = body[: len(body) - len(body.lstrip())]
    trail = body[len(body.rstrip()):]
    if "r" not in prefix.lower():
        text = text.replace("\\", "\\\\")
    text = text.replace(quote, "\\" + quote if len(quote) == 1 else quote[0] + "\\" + quote[1:])
    if not trail and text.endswith(quote[0]):
        text = text[:-1] + "\\" + quote[0]
    if len(quote) == 1:
        text = text.replace("\n", "\\n")
    return f"{prefix}{quote}{lead}{text}{trail}{quote}"


def _offsets(source: str) -> list[int]:
    """Character offset of the start of each line (index 1 = line 1)."""
    starts = [0, 0]
    for line in source.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    return starts


def load(path: Path) -> tuple[dict, list[Problem]]:
    """Read a translation file: ``({"docstring": {...}, "comments": {...}}, problems)``."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        return {}, [Problem("invalid", f"{path.name} does not parse ({exc}); fix: correct its TOML")]
    problems = []
    doc = data.get("docstring", {})
    comments = data.get("comments", {})
    if not isinstance(doc, dict) or not all(isinstance(doc.get(k, ""), str) for k in ("en", "zh")):
        problems.append(Problem("invalid", f"{path.name}: [docstring] must hold strings en and zh"))
        doc = {}
    if not isinstance(comments, dict) or not all(isinstance(v, str) for v in comments.values()):
        problems.append(Problem("invalid", f"{path.name}: [comments] must map strings to strings"))
        comments = {}
    return {"docstring": doc, "comments": comments}, problems


def localize(snippet: Path, language: str = LANGUAGE) -> Localized:
    """The snippet's source with its docstring and comments from ``<stem>.<language>.toml``.

    Whatever has no (current) translation stays in English and is named in ``problems``, each
    message naming the snippet, the English text and the fix.
    """
    snippet = Path(snippet)
    source = snippet.read_text(encoding="utf-8")
    parts = _parts(source)
    path = translations_path(snippet, language)
    name = snippet.name
    wanted = [comment_key(t.string) for t in parts.comments]
    if not path.exists():
        if parts.docstring or any(needs_translation(k) for k in wanted):
            return Localized(source, path, (Problem(
                "missing-file", f"snippet {name!r} has no translation file {path.name}; fix: "
                f"write it beside the snippet, with its docstring and every comment translated"),))
        return Localized(source, path, ())
    data, problems = load(path)
    doc = data.get("docstring", {})
    comments: dict[str, str] = data.get("comments", {})
    edits: list[tuple[tuple[int, int], tuple[int, int], str]] = []

    if parts.docstring is not None:
        if doc.get("en") != parts.docstring or not doc.get("zh"):
            what = ("has no [docstring] translation" if "en" not in doc or not doc.get("zh") else
                    "has a [docstring] whose 'en' is no longer the snippet's docstring")
            problems.append(Problem("docstring", f"snippet {name!r}: {path.name} {what}; English "
                                    f"docstring begins {parts.docstring.splitlines()[0]!r}; fix: "
                                    f"set 'en' to the docstring exactly and translate it in 'zh'"))
        else:
            zh = doc["zh"]
            kept = [m.group(0) for m in _HEADER_LINE.finditer(zh)]
            lost = [m.group(0) for m in _HEADER_LINE.finditer(parts.docstring)
                    if m.group(0) not in kept]
            if lost:
                problems.append(Problem("docstring", f"snippet {name!r}: the Chinese docstring in "
                                        f"{path.name} must keep {lost[0]!r} exactly as in English"))
            else:
                token = parts.docstring_token
                edits.append((token.start, token.end, _docstring_literal(token.string, zh)))
    elif doc:
        problems.append(Problem("unused", f"snippet {name!r} has no docstring, but {path.name} "
                                "translates one; fix: remove its [docstring] table"))

    for token in parts.comments:
        key = comment_key(token.string)
        if key in comments:
            edits.append((token.start, token.end, f"# {comments[key]}".rstrip()))
        elif needs_translation(key):
            problems.append(Problem("untranslated", f"snippet {name!r}, line {token.start[0]}: "
                                    f"comment {key!r} has no translation in {path.name} (new or "
                                    f"changed English text); fix: add it under [comments]"))
    for key in comments:
        if key not in wanted:
            problems.append(Problem("unused", f"snippet {name!r}: {path.name} translates comment "
                                    f"{key!r}, which is not in the snippet any more; fix: remove "
                                    f"it, or key its translation by the current English text"))

    offsets = _offsets(source)
    text = source
    for start, end, new in sorted(edits, reverse=True):
        a = offsets[start[0]] + start[1]
        b = offsets[end[0]] + end[1]
        text = text[:a] + new + text[b:]
    if edits:
        result = _parts(text)
        if parts.docstring is not None and result.docstring not in (doc.get("zh"), parts.docstring):
            problems.append(Problem("docstring", f"snippet {name!r}: the Chinese docstring in "
                                    f"{path.name} does not read back as written"))
    return Localized(text, path, tuple(problems))
