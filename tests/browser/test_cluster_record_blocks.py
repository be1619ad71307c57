"""Each multi-node record block of the built site (``{cluster-record}``) says how often what it
shows was printed alike in repeated runs, as its record says: for a block showing one run of a
scenario that has several, that run's own count, not the scenario's. Reads the built HTML."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from refsite.measurements import cluster_records
from tests.support.cluster_pages import record_blocks
from tests.support.paths import REPO

pytestmark = pytest.mark.slow

SAME = {"en": re.compile(r"· (\d+) of (\d+) runs printed the same"),
        "zh": re.compile(r"重复运行 (\d+) 次，其中 (\d+) 次输出相同")}


def expected(record: str, run: str | None) -> tuple[str, str]:
    """(alike, of how many) for a block showing ``run`` of ``record`` (all its runs: None)."""
    found = cluster_records.read(REPO / cluster_records.RECORDS_DIR / f"{record}.json")
    if run is not None and "alike" in found.figures.get(run, {}):
        return str(found.figures[run]["alike"]), str(found.repeat)
    return str(found.passed), str(found.repeat)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_each_block_states_how_often_its_runs_printed_the_same(site: Path, lang: str) -> None:
    checked = 0
    for source in sorted((REPO / "docs" / lang).rglob("*.md")):
        directives = record_blocks(source)
        if not directives:
            continue
        page = site / lang / source.relative_to(REPO / "docs" / lang).with_suffix(".html")
        soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
        blocks = soup.select("div.cluster-record > p.vs-provenance")
        assert len(blocks) == len(directives), f"{page}: {len(blocks)} blocks for {len(directives)} directives"
        for (record, run), block in zip(directives, blocks):
            found = SAME[lang].search(block.get_text())
            assert found, f"{page}: {record} {run}: no count in {block.get_text()!r}"
            shown = found.groups() if lang == "en" else found.groups()[::-1]
            assert shown == expected(record, run), (page, record, run, block.get_text())
            checked += 1
    assert checked >= 15, f"only {checked} record blocks found"
