"""Which rank outputs show side by side, one column per rank, instead of one tab per rank.

Used by :mod:`verified_snippets`; the stylesheet lays the columns out. Needs only the standard
library.
"""

from __future__ import annotations

import typing
import unicodedata

#: Rank counts whose outputs may show side by side (one column per rank).
SIDE_BY_SIDE_RANKS = range(2, 5)
#: Most lines a rank's output may have to show in a column.
SIDE_BY_SIDE_MAX_LINES = 12
#: Characters of monospace text one output block shows on a wide screen without scrolling
#: (about 48em at the theme's sizes, the width of the article on a 1400 px screen).
SIDE_BY_SIDE_WIDTH = 88
#: What each column costs besides its text (padding, border, gap), in characters.
SIDE_BY_SIDE_COLUMN_EXTRA = 5


def _columns(line: str) -> int:
    """Width of ``line`` in monospace columns (wide East Asian characters take two)."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)


def side_by_side(ranks: typing.Sequence[str]) -> bool:
    """Whether these rank outputs are short enough to show next to each other.

    They are when there are 2-4 ranks, none printed more than :data:`SIDE_BY_SIDE_MAX_LINES`
    lines, and a column as wide as the longest line of any rank, plus its padding, fits
    that many times into :data:`SIDE_BY_SIDE_WIDTH`: laid side by side, no line is cut off.
    Longer outputs keep one tab per rank. The stylesheet shows the columns only where the
    block is at least as wide as that (a container query), and stacks them otherwise.
    """
    if len(ranks) not in SIDE_BY_SIDE_RANKS:
        return False
    lines = [stdout.splitlines() for stdout in ranks]
    if max(map(len, lines)) > SIDE_BY_SIDE_MAX_LINES:
        return False
    widest = max((_columns(line) for rank in lines for line in rank), default=0)
    return len(ranks) * (widest + SIDE_BY_SIDE_COLUMN_EXTRA) <= SIDE_BY_SIDE_WIDTH
