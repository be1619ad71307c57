"""The theme's stylesheet, cut to the rules the site can use.

pydata-sphinx-theme ships one 376 KB stylesheet: Bootstrap's components and utilities, every
Font Awesome icon's rule (about 2,000, 71 KB), and its own. A page of this site uses a few
dozen icons and a fraction of Bootstrap, and every page loaded all of it: on
``distributed/collectives`` it was 40 % of what the page loads.

At the end of an HTML build (``build-finished``), :func:`prune` rewrites the copy in the output's
``_static/styles/``: a selector survives when every class it names is *usable*, that is, the
class is in a ``class="..."`` of some built page of that tree, or is a word of one of the tree's
scripts (classes inside a pseudo-class's parentheses, such as ``:not(.option-list)``, are no
condition) (the theme's and Bootstrap's scripts add classes at run time: ``show``, ``collapsing``,
``fa-sun``; any word they contain counts, which keeps more than needed and never less). A rule
keeps its usable selectors and goes when none is left; ``@media`` and ``@supports`` blocks are
pruned inside and go when empty; every other at-rule (``@font-face``, ``@keyframes``) and every
selector without a class (``html``, ``[data-theme=dark]``) stays. Comments go, the licence
comments (``/*! ... */``) aside, and so does the source-map comment: the map describes the whole
file. The solid icon font (115 KB, every icon) is then cut with fontTools to the icons the cut
stylesheet still names (:func:`icon_codepoints`). Reads and writes files only.
"""

from __future__ import annotations

import re
import typing
from pathlib import Path

from sphinx.util import logging

from refsite import __version__

logger = logging.getLogger(__name__)

#: The stylesheet, relative to an HTML output folder.
THEME_CSS = Path("_static", "styles", "pydata-sphinx-theme.css")
#: The solid icon font, the one whose icons the pages draw.
ICON_FONT = Path("_static", "vendor", "fontawesome", "webfonts", "fa-solid-900.woff2")
_ICON = re.compile(r"\\([0-9a-fA-F]{4})\b")
#: At-rules whose blocks hold rules (pruned inside); other at-rules are kept whole.
_NESTING = ("@media", "@supports", "@layer", "@container")
_CLASS = re.compile(r"\.(-?[A-Za-z_][A-Za-z0-9_-]*)")
_IGNORED = re.compile(r"\[[^\]]*\]|url\([^)]*\)|\"[^\"]*\"|'[^']*'")  # attribute values, strings
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")
_CLASS_ATTRIBUTE = re.compile(r"""class=["']([^"']*)["']""")
_COMMENT = re.compile(r"/\*.*?\*/", re.S)
_LICENCE = re.compile(r"/\*!.*?\*/", re.S)  # kept, at the top


def usable_classes(outdir: Path) -> set[str]:
    """Every class a page of ``outdir`` names, and every word of its scripts (the search index
    aside: it holds page text, not classes)."""
    found: set[str] = set()
    for page in outdir.rglob("*.html"):
        for match in _CLASS_ATTRIBUTE.finditer(page.read_text(encoding="utf-8", errors="replace")):
            found.update(match.group(1).split())
    for script in outdir.rglob("*.js"):
        if script.name != "searchindex.js":
            found.update(_WORD.findall(script.read_text(encoding="utf-8", errors="replace")))
    return found


def _usable(selector: str, classes: set[str]) -> bool:
    """Whether every class ``selector`` names outside parentheses is usable (a class inside
    ``:not(...)`` is no condition; inside ``:is``/``:where``/``:has`` it is one of several)."""
    return all(name in classes for name in _CLASS.findall(_outside_parentheses(_IGNORED.sub("", selector))))


def _outside_parentheses(selector: str) -> str:
    kept, depth = [], 0
    for char in selector:
        depth += char == "("
        if depth == 0:
            kept.append(char)
        depth -= char == ")" and depth > 0
    return "".join(kept)


def _block_end(text: str, start: int) -> int:
    """The index of the ``}`` that closes the ``{`` at ``start``."""
    depth = 0
    for index in range(start, len(text)):
        if text[index] == "{":
            depth += 1
        elif text[index] == "}":
            depth -= 1
            if depth == 0:
                return index
    raise ValueError(f"unbalanced braces after offset {start}")


def prune(css: str, classes: set[str]) -> str:
    """``css`` with the selectors that name a class not in ``classes`` left out (see the module);
    the licence comments (``/*! ... */``) first, no other comment."""
    licences = _LICENCE.findall(css)
    return "\n".join([*licences, _prune_rules(_COMMENT.sub("", css), classes)])


def _prune_rules(css: str, classes: set[str]) -> str:
    out: list[str] = []
    position = 0
    while position < len(css):
        opening = css.find("{", position)
        if opening < 0:
            out.append(css[position:])
            break
        head = css[position:opening]
        closing = _block_end(css, opening)
        if head.strip().startswith("@"):
            if head.strip().startswith(_NESTING):
                inner = _prune_rules(css[opening + 1:closing], classes)
                if inner.strip():
                    out.append(f"{head}{{{inner}}}")
            else:
                out.append(css[position:closing + 1])
        else:
            kept = [s for s in _split_selectors(head) if _usable(s, classes)]
            if kept:
                out.append(",".join(kept) + css[opening:closing + 1])
        position = closing + 1
    return "".join(out)


def _split_selectors(head: str) -> list[str]:
    """A selector list cut at its top-level commas (not those inside ``:is(a, b)``)."""
    parts, depth, start = [], 0, 0
    for index, char in enumerate(head):
        if char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(head[start:index])
            start = index + 1
    parts.append(head[start:])
    return parts


def icon_codepoints(css: str) -> set[int]:
    """The characters the icon rules of ``css`` draw: every ``"\\f002"``-like escape of the
    private-use area in a string (an icon's ``--fa`` or ``content``)."""
    return {int(code, 16) for code in _ICON.findall(css) if 0xE000 <= int(code, 16) <= 0xF8FF}


def subset_font(path: Path, codepoints: set[int]) -> None:
    """Rewrite the WOFF2 font at ``path`` with the glyphs of ``codepoints`` only."""
    from fontTools import subset  # the doc build's only use of it

    options = subset.Options()
    options.flavor = "woff2"
    options.layout_features = ["*"]
    font = subset.load_font(str(path), options)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(codepoints))
    subsetter.subset(font)
    subset.save_font(font, str(path), options)


def prune_output(outdir: Path) -> tuple[int, int] | None:
    """Rewrite the theme's stylesheet of the HTML output ``outdir``, and its solid icon font (the
    one the pages load) with the icons the cut stylesheet still draws; (bytes before, after) of
    the two together, or ``None`` when the output has no such stylesheet."""
    path, font = outdir / THEME_CSS, outdir / ICON_FONT
    if not path.is_file():
        return None
    before = path.read_text(encoding="utf-8")
    after = prune(before, usable_classes(outdir))
    size = len(before.encode()) + (font.stat().st_size if font.is_file() else 0)
    path.write_text(after, encoding="utf-8")
    if font.is_file():
        subset_font(font, icon_codepoints(after))
    return size, len(after.encode()) + (font.stat().st_size if font.is_file() else 0)


def _prune_after_build(app: typing.Any, exception: Exception | None) -> None:
    if exception is None and app.builder.format == "html":
        sizes = prune_output(Path(app.outdir))
        if sizes:
            logger.info(f"theme stylesheet and icon font cut to what the site can use: {sizes[0]:,} -> "
                        f"{sizes[1]:,} bytes")


def setup(app: typing.Any) -> dict[str, typing.Any]:
    """Prune the theme's stylesheet at the end of each HTML build."""
    app.connect("build-finished", _prune_after_build, priority=900)  # after the other writers
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
