"""What the compat measurement files say, on the pages: a line per snippet panel, a stamp per page,
and a table per area (``{compat-table} AREA``).

The panel line: "Same output on torch 2.6–2.15; differs on 2.5 (diff); fails on 2.4:
AttributeError: ...", made from :mod:`compat_results` and the variant's record (the release the
record was made with counts as *same*). The stamp, at the top of every page that shows a recorded
output: the torch, backends, devices and world sizes of the records it shows, and the dates of
the compat runs. Reads files only; never imports torch.
"""

from __future__ import annotations

import dataclasses
import functools
from pathlib import Path

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

from refsite.snippets import compat_results
from refsite import snippets
from refsite.snippets.compat_results import DIFFERS, FAILS, SAME, Outcome, ReleaseRun
from refsite.snippets import Record, Spec, SpecError, Variant
from refsite import __version__

logger = logging.getLogger(__name__)

#: Where a snippet block keeps what its records say, for the page stamp.
RECORDS_ATTRIBUTE = "vs_records"


@dataclasses.dataclass(frozen=True)
class Strings:
    """The words of the compat line, the stamp and the table, in one language."""

    same: str
    same_again: str
    differs: str
    fails: str
    joiner: str
    diff_summary: str
    no_results: str
    stamp: str
    stamp_compat: str
    stamp_no_compat: str
    table_example: str
    table_legend: str


STRINGS = {
    "en": Strings(
        same="Same output on torch {span}", same_again="same on {span}", differs="differs on {span}", fails="fails on {span}: ",
        joiner="; ", diff_summary="diff on torch {release}",
        no_results=("No results on older torch releases yet: this example or its record changed "
                    "after the last make compat."),
        stamp="Outputs on this page: recorded with torch {torch} · {setups} · world sizes {sizes}",
        stamp_compat=" · older releases run on {dates} (torch {span})",
        stamp_no_compat=" · not run on older releases yet",
        table_example="example [variant]",
        table_legend="✓ same output · Δ different output · ✗ fails · – no result for this version of the example",
    ),
    "zh": Strings(
        same="torch {span} 输出相同", same_again="{span} 输出相同", differs="{span} 输出不同", fails="{span} 运行失败：",
        joiner="；", diff_summary="torch {release} 上的差异",
        no_results="尚无旧版 torch 上的结果：上次 make compat 之后，这个示例或它的记录有改动。",
        stamp="本页输出：录制于 torch {torch} · {setups} · world size {sizes}",
        stamp_compat=" · 旧版本运行于 {dates}（torch {span}）",
        stamp_no_compat=" · 尚未在旧版本上运行",
        table_example="示例 [变体]",
        table_legend="✓ 输出相同 · Δ 输出不同 · ✗ 运行失败 · – 这一版示例尚无结果",
    ),
}


def strings_for(language: str | None) -> Strings:
    return STRINGS.get((language or "en").split("_")[0].split("-")[0], STRINGS["en"])


@functools.lru_cache(maxsize=4)
def _runs(folder: str, stamps: tuple[tuple[str, float], ...]) -> tuple[ReleaseRun, ...]:
    return tuple(compat_results.read_runs(Path(folder)))


def runs_in(folder: Path) -> tuple[ReleaseRun, ...]:
    """The measurement files of ``folder``, read once while none of them changes."""
    files = sorted(folder.glob("torch-*.json"))
    return _runs(str(folder), tuple((str(f), f.stat().st_mtime) for f in files))


def panel_outcomes(runs: tuple[ReleaseRun, ...], spec: Spec, variant: Variant, record: Record,
                   root: Path) -> list[Outcome] | None:
    key = compat_results.variant_key(spec.path.relative_to(root.resolve()).as_posix(), variant.id)
    return compat_results.outcomes(list(runs), key, compat_results.code_digest(spec.path), record)


def line_parts(found: list[Outcome] | None, strings: Strings) -> list[tuple[str, str]]:
    """The compat line of one panel as (words, error) parts, newest releases first so that it
    opens with the pinned release's own *same*; ``error`` (an exception and its message, shown
    in code font, never typographically quoted) is empty but for failures."""
    if found is None:
        return [(strings.no_results, "")]
    parts = []
    for label, group in reversed(compat_results.groups(found)):
        span = compat_results.span(group)
        if label == compat_results.UNMEASURED:
            continue
        if label == SAME:
            parts.append(((strings.same_again if parts else strings.same).format(span=span), ""))
        elif label == DIFFERS:
            parts.append((strings.differs.format(span=span), ""))
        else:
            error = f"{group[0].error_type}: {group[0].error}" if group[0].error else group[0].error_type
            parts.append((strings.fails.format(span=span), error))
    return parts


def line_text(found: list[Outcome] | None, strings: Strings) -> str:
    """The compat line of one panel, as text."""
    return strings.joiner.join(words + error for words, error in line_parts(found, strings))


def compat_line(found: list[Outcome] | None, strings: Strings) -> nodes.container:
    """The panel's compat line, and each differing release's diff, folded."""
    box = nodes.container(classes=["vs-compat"])
    line = nodes.paragraph("", "", classes=["vs-compat-line"])
    for number, (words, error) in enumerate(line_parts(found, strings)):
        line += nodes.Text((strings.joiner if number else "") + words)
        if error:
            line += nodes.literal(error, error)
    box += line
    for outcome in found or ():
        if outcome.result == DIFFERS:
            summary = strings.diff_summary.format(release=compat_results.short_release(outcome.release))
            box += nodes.raw("", f'<details class="vs-compat-diff"><summary>{summary}</summary>', format="html")
            diff = "\n".join(outcome.diff)
            block = nodes.literal_block(diff, diff, classes=["vs-compat-diff-text"])
            block["language"] = "diff"
            box += block
            box += nodes.raw("", "</details>", format="html")
    return box


def record_facts(record: Record) -> tuple[str, str, str, int]:
    """What the page stamp needs of one shown record."""
    return (record.torch, record.backend or "", record.device, record.world_size)


def page_stamp(facts: list[tuple[str, str, str, int]], runs: tuple[ReleaseRun, ...],
               strings: Strings) -> nodes.paragraph:
    """The stamp of a page: its records' torch, backend/device pairs and world sizes, and the
    compat runs' dates and releases."""
    torches = ", ".join(sorted({f[0] for f in facts}))
    setups = ", ".join(sorted({f"{backend} {device}".strip() for _, backend, device, _ in facts}))
    sizes = ", ".join(str(n) for n in sorted({f[3] for f in facts}))
    text = strings.stamp.format(torch=torches, setups=setups, sizes=sizes)
    measured = [run for run in runs if run.installed]
    if measured:
        dates = sorted({run.date for run in measured})
        dates_text = dates[0] if len(dates) == 1 else f"{dates[0]}–{dates[-1]}"
        span = compat_results.span([Outcome(run.torch, SAME) for run in measured])
        text += strings.stamp_compat.format(dates=dates_text, span=span)
    else:
        text += strings.stamp_no_compat
    return nodes.paragraph(text, text, classes=["vs-page-stamp"])


def add_page_stamp(app: Sphinx, doctree: nodes.document) -> None:
    """``doctree-read``: the stamp after the page's title, from the records its snippets show."""
    facts = [tuple(f) for block in doctree.findall(nodes.container)
             for f in block.get(RECORDS_ATTRIBUTE, ())]
    if not facts:
        return
    runs = runs_in(Path(app.config.verified_snippets_compat_dir))
    stamp = page_stamp(facts, runs, strings_for(app.config.language))
    section = next(iter(doctree.findall(nodes.section)), None)
    if section is not None and section.children and isinstance(section[0], nodes.title):
        section.insert(1, stamp)
    else:
        doctree.insert(0, stamp)


class CompatTableDirective(SphinxDirective):
    """``{compat-table} AREA``: every CPU variant of the snippets under AREA, one column per
    release measured, each cell the variant's result on that release."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        root = Path(self.config.verified_snippets_root).resolve()
        folder = Path(self.config.verified_snippets_compat_dir)
        strings = strings_for(self.config.language)
        runs = [run for run in runs_in(folder) if run.installed]
        for run in runs:
            self.env.note_dependency(str(run.path))
        releases = [compat_results.short_release(run.torch) for run in runs]
        rows, pins = [], set()
        for path in snippets.snippet_paths(root / self.arguments[0]):
            self.env.note_dependency(str(path))
            try:
                spec = snippets.read_spec(path)
                cpu = [(v, snippets.read_record(spec.record_path(v))) for v in spec.variants if v.device == "cpu"]
            except SpecError as exc:  # the snippet's own page reports it too; the table must not crash
                logger.warning(f"compat table: {exc}", location=(self.env.docname, self.lineno),
                               type="compat_notes", subtype="record")
                continue
            code = compat_results.code_digest(path)
            for variant, record in cpu:
                digest = compat_results.record_digest(record)
                key = compat_results.variant_key(path.relative_to(root).as_posix(), variant.id)
                cells = []
                for run in runs:
                    outcome = run.outcome(key, code, digest)
                    cells.append("–" if outcome is None else
                                 {SAME: "✓", DIFFERS: "Δ", FAILS: "✗"}[outcome.result])
                pins.add(compat_results.short_release(record.torch))
                rows.append([f"{path.relative_to(root).as_posix()} [{variant.id}]", *cells, "✓"])
        if not rows:
            return []
        header = [strings.table_example, *releases, " / ".join(sorted(pins))]
        table = nodes.table(classes=["vs-compat-table"])
        group = nodes.tgroup(cols=len(header))
        table += group
        for _ in header:
            group += nodes.colspec(colwidth=1)
        group += nodes.thead("", _row(header))
        group += nodes.tbody("", *[_row(row) for row in rows])
        legend = nodes.paragraph(strings.table_legend, strings.table_legend, classes=["vs-compat-legend"])
        return [table, legend]


def _row(cells: list[str]) -> nodes.row:
    row = nodes.row()
    for cell in cells:
        entry = nodes.entry()
        entry += nodes.paragraph(cell, cell)
        row += entry
    return row


def _resolve_dir(app: Sphinx, config: object) -> None:
    config.verified_snippets_compat_dir = str(Path(app.confdir, config.verified_snippets_compat_dir))


def setup(app: Sphinx) -> dict:
    """The compat table directive, the page stamp, and where the measurement files are."""
    app.add_config_value("verified_snippets_compat_dir", str(compat_results.COMPAT_DIR), "env", types=frozenset({str}))
    app.add_directive("compat-table", CompatTableDirective)
    app.connect("config-inited", _resolve_dir)
    app.connect("doctree-read", add_page_stamp)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
