"""Every snippet panel of the built site says on which torch releases it runs, as the committed
compat files say (read on their own by :mod:`compat_lines`), and every page that shows outputs
carries its stamp. Reads the built HTML; no browser."""

from __future__ import annotations

import dataclasses
import functools
import html
import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from refsite.measurements import compat_results, machine_paths
from refsite import snippets
from tests.support.compat_lines import line_problems, measured
from tests.support.paths import REPO


SNIPPETS = REPO / "snippets"
COMPAT = REPO / compat_results.COMPAT_DIR

pytestmark = pytest.mark.slow


def cpu_variants_by_command() -> dict[str, tuple[snippets.Spec, snippets.Variant]]:
    found = {}
    for path in snippets.snippet_paths(SNIPPETS):
        spec = snippets.read_spec(path)
        for variant in spec.variants:
            if variant.device == "cpu":
                command = spec.command(variant)
                assert command not in found, f"two variants run by {command!r}: the test cannot tell them apart"
                found[command] = (spec, variant)
    return found


#: A snippet's block (a multi-node record, ``{cluster-record}``, has its own provenance).
SNIPPET_BLOCK = "div.vs-snippet:not(.cluster-record)"
TAG = re.compile(r"<[^>]+>")


@dataclasses.dataclass(frozen=True)
class PageFacts:
    """What these tests read of one built page (each page is parsed once, for all of them)."""

    panels: tuple[tuple[str, str | None], ...]  # (command, compat line or None) per variant panel
    stamps: tuple[str, ...]  # the text of each page stamp
    provenance: tuple[str, ...]  # the text of each snippet block's provenance line


@functools.cache
def facts(page: Path) -> PageFacts:
    raw = page.read_text(encoding="utf-8")
    if "vs-variant" not in raw and "vs-page-stamp" not in raw:  # no output shown: nothing to parse
        return PageFacts((), (), ())
    soup = BeautifulSoup(raw, "html.parser")
    panels = []
    for panel in soup.select(f"{SNIPPET_BLOCK} div.vs-variant"):
        line = panel.select_one("p.vs-compat-line")
        panels.append((panel.select_one("div.vs-command pre").get_text().strip(),
                       line.get_text() if line else None))
    return PageFacts(tuple(panels), tuple(p.get_text() for p in soup.select("p.vs-page-stamp")),
                     tuple(p.get_text() for p in soup.select(f"{SNIPPET_BLOCK} p.vs-provenance")))


def panels(page: Path) -> tuple[tuple[str, str | None], ...]:
    return facts(page).panels


def test_every_english_panel_line_agrees_with_the_compat_files(site: Path) -> None:
    variants = cpu_variants_by_command()
    problems, checked = [], 0
    for page in sorted((site / "en").rglob("*.html")):
        for command, line in panels(page):
            if command not in variants:
                assert line is None, f"{page}: a GPU variant ({command}) has a compat line: {line!r}"
                continue
            spec, variant = variants[command]
            assert line is not None, f"{page}: the panel of {command!r} has no compat line"
            problems += [f"{page.relative_to(site)}: {p}" for p in
                         line_problems(line, measured(COMPAT, spec, variant, SNIPPETS))]
            checked += 1
    assert checked >= len(variants), f"only {checked} panels found for {len(variants)} CPU variants"
    assert not problems, "\n".join(problems)


def test_the_chinese_panels_name_the_same_releases(site: Path) -> None:
    releases = re.compile(r"\d+\.\d+(?:–\d+\.\d+)?")
    for en_page in sorted((site / "en").rglob("*.html")):
        en, zh = panels(en_page), panels(site / "zh" / en_page.relative_to(site / "en"))
        assert [c for c, _ in en] == [c for c, _ in zh], f"{en_page.name}: the panels differ between languages"
        for (command, en_line), (_, zh_line) in zip(en, zh):
            if en_line is not None:
                assert releases.findall(en_line) == releases.findall(zh_line), (en_page.name, command, en_line, zh_line)


def test_every_page_with_outputs_has_its_stamp(site: Path) -> None:
    for lang, recorded in (("en", "recorded with torch "), ("zh", "录制于 torch ")):
        for page in sorted((site / lang).rglob("*.html")):
            page_facts = facts(page)
            stamps = page_facts.stamps
            if page_facts.provenance:  # a recorded output is shown
                assert len(stamps) == 1, f"{page}: {len(stamps)} stamps"
                torches = {text.split("torch ")[1].split(" ")[0] for text in page_facts.provenance}
                assert recorded + ", ".join(sorted(torches)) in stamps[0], stamps[0]
            else:
                assert not stamps, f"{page}: a stamp on a page that shows no recorded output"


def test_no_page_shows_a_path_of_the_build_machine(site: Path) -> None:
    # Compat lines quote error messages and diffs; make compat stores them with every path
    # normalised (refsite.measurements.machine_paths). A page that still shows one fails here.
    found = {}
    for page in sorted(site.rglob("*.html")):
        # the text between the tags (a parser took 50 s for the site's pages, this about 2)
        text = html.unescape(TAG.sub(" ", page.read_text(encoding="utf-8")))
        if left := machine_paths.this_machines_paths(text, REPO):
            found[str(page.relative_to(site))] = left[:2]
    assert found == {}, f"{len(found)} pages show build-machine paths: {dict(list(found.items())[:8])}"
