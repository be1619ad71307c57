"""One reader of the site's MyST pages, for every check that looks at their source: the fenced
blocks (backtick, tilde or colon fences; a directive's body read for the blocks nested in it),
the lines outside any block, and the labels. The page linters (prose, parity, ledger,
signatures) read pages through it. Standard library only.
"""

from __future__ import annotations

import dataclasses
import re

_OPEN = re.compile(r"^\s*(`{3,}|~{3,}|:{3,})(.*)$")
_DIRECTIVE = re.compile(r"^\{([\w:.-]+)\}\s*(.*)$")
#: An explicit MyST label line, ``(name)=``.
LABEL = re.compile(r"^\(([^()\s]+)\)=\s*$")
#: A Markdown section heading.
HEADING = re.compile(r"^#{1,6}\s")


@dataclasses.dataclass(frozen=True)
class Fence:
    """One fenced block: ``info`` is what follows the opening marker (``{snippet} a/b.py``,
    ``console``), ``line`` the opening line's number (1-based), ``body`` its lines."""

    marker: str
    info: str
    line: int
    body: str

    @property
    def directive(self) -> str | None:
        """The directive's name (``snippet`` for ``{snippet} a/b.py``); None for a code block."""
        match = _DIRECTIVE.match(self.info)
        return match.group(1) if match else None

    @property
    def argument(self) -> str:
        """A directive's argument (``a/b.py``), or a code block's language (``console``)."""
        match = _DIRECTIVE.match(self.info)
        return match.group(2).strip() if match else self.info

    @property
    def body_line(self) -> int:
        """The number of the body's first line."""
        return self.line + 1


@dataclasses.dataclass(frozen=True)
class Page:
    fences: tuple[Fence, ...]  # in page order, nested ones after the one holding them
    outside: tuple[tuple[int, str], ...]  # (line number, line) outside every block

    def directives(self, name: str) -> list[Fence]:
        """The blocks of directive ``name`` (``snippet``, ``signature``), in page order."""
        return sorted((f for f in self.fences if f.directive == name), key=lambda f: f.line)

    def labels(self) -> list[str]:
        """The explicit labels ``(name)=`` outside blocks, in page order."""
        return [m.group(1) for _, line in self.outside if (m := LABEL.match(line))]


def _closes(line: str, marker: str) -> bool:
    bare = line.strip()
    return bare[:1] == marker[0] and len(bare) >= len(marker) and bare == bare[0] * len(bare)


def _scan(lines: list[str], first: int, fences: list[Fence], outside: list | None) -> None:
    index = 0
    while index < len(lines):
        match = _OPEN.match(lines[index])
        if not match:
            if outside is not None:
                outside.append((first + index, lines[index]))
            index += 1
            continue
        marker, info = match.group(1), match.group(2).strip()
        end = index + 1
        while end < len(lines) and not _closes(lines[end], marker):
            end += 1
        fence = Fence(marker, info, first + index, "\n".join(lines[index + 1:end]))
        fences.append(fence)
        if fence.directive is not None:  # a directive's body may hold blocks of its own
            _scan(lines[index + 1:end], first + index + 1, fences, None)
        index = end + 1


def read_page(text: str) -> Page:
    """The blocks and the lines outside them of one page's source."""
    fences: list[Fence] = []
    outside: list[tuple[int, str]] = []
    _scan(text.splitlines(), 1, fences, outside)
    return Page(tuple(fences), tuple(outside))


def embedded_snippets(text: str) -> list[str]:
    """The snippet paths (relative to ``snippets/``) a page's text embeds, in page order."""
    return [fence.argument for fence in read_page(text).directives("snippet")]
