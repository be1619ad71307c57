"""Which rank outputs show side by side: the rule of ``rank_columns.side_by_side``, and the
classes the ``snippet`` directive gives the ranks it applies to.

The limits are read from the module's constants, so each case sits just inside or just outside
them; the built site's check that columns really show every line whole is in
``tests/browser/``.
"""

from __future__ import annotations

import pytest
from sphinx.testing.util import SphinxTestApp

from refsite import snippets
from refsite.sphinxext.rank_columns import (SIDE_BY_SIDE_COLUMN_EXTRA, SIDE_BY_SIDE_MAX_LINES, SIDE_BY_SIDE_RANKS,
                          SIDE_BY_SIDE_WIDTH, side_by_side)
from tests.support.records import record_all_cpu
from tests.support.sphinx_builds import html, warnings


def widest(ranks: int) -> int:
    """The longest line ``ranks`` columns may hold."""
    return SIDE_BY_SIDE_WIDTH // ranks - SIDE_BY_SIDE_COLUMN_EXTRA


@pytest.mark.parametrize("ranks", list(SIDE_BY_SIDE_RANKS))
def test_a_line_as_wide_as_a_column_allows_still_fits(ranks: int) -> None:
    fits = ["x" * widest(ranks) + "\n"] * ranks
    assert side_by_side(fits)
    assert not side_by_side([fits[0].replace("x", "xx", 1), *fits[1:]])  # one character more


def test_rank_counts_outside_two_to_four_keep_tabs() -> None:
    assert 1 not in SIDE_BY_SIDE_RANKS and 5 not in SIDE_BY_SIDE_RANKS
    assert not side_by_side(["ok\n"])
    assert not side_by_side(["ok\n"] * (max(SIDE_BY_SIDE_RANKS) + 1))
    assert side_by_side(["ok\n"] * max(SIDE_BY_SIDE_RANKS))


def test_too_many_lines_keep_tabs() -> None:
    most = "ok\n" * SIDE_BY_SIDE_MAX_LINES
    assert side_by_side([most, "ok\n"])
    assert not side_by_side([most + "ok\n", "ok\n"])


def test_wide_characters_count_twice() -> None:
    half = widest(2) // 2
    assert side_by_side(["秩" * half + "\n", "ok\n"])
    assert not side_by_side(["秩" * (half + 1) + "\n", "ok\n"])
    assert side_by_side(["x" * (half + 1) + "\n", "ok\n"])


def test_empty_outputs_fit() -> None:
    assert side_by_side(["", ""])


@pytest.mark.sphinx("html", testroot="snippet", srcdir="snippet-side-by-side")
def test_directive_marks_short_rank_outputs_as_columns(app: SphinxTestApp) -> None:
    record_all_cpu(app.srcdir / "snippets")
    app.build()
    assert warnings(app) == []
    recorded = snippets.read_record(app.srcdir / "snippets" / "pair.gloo-cpu-2.out.json")
    assert side_by_side(recorded.ranks)  # one short line per rank
    ranks = html(app).select_one("div.vs-variant div.vs-ranks")
    assert {"vs-tabs", "vs-ranks", "vs-ranks-columns", "vs-ranks-2"} <= set(ranks["class"])
    assert len(ranks.select(":scope > div.vs-rank")) == 2  # still one pane per rank, labelled
