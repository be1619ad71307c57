"""``{gpu-variants}``: every GPU variant of the snippets, the GPUs it needs, and whether it has
been captured on a GPU (the GPU, torch and day its record names) or not yet.

Made from the snippets' headers and their records (:mod:`refsite.snippets`), at every build, so
the GPU runners page says what is captured without a hand-kept list. A record made with another
torch than the pin is shown with its own torch (and stays until a runner with the pin records
the variant again); one made before records named their GPU says so.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

from refsite import __version__, snippets


@dataclasses.dataclass(frozen=True)
class Row:
    """One GPU variant and what its record says, if it has one."""

    snippet: str  # under the snippets root
    variant: str
    gpus: int
    record: snippets.Record | None  # a current record (its source digest matches), or None


def rows(root: Path) -> list[Row]:
    """Every GPU variant under ``root``, in path order; a stale record counts as none."""
    found = []
    for path in snippets.snippet_paths(root):
        spec = snippets.read_spec(path)
        for variant in spec.variants:
            if variant.device == "cpu":
                continue
            record_path = spec.record_path(variant)
            record = snippets.read_record(record_path) if record_path.exists() else None
            if record is not None and snippets.stale_reason(spec, record):
                record = None
            found.append(Row(path.relative_to(root).as_posix(), variant.id, variant.gpus, record))
    return found


STRINGS = {
    "en": {"head": ("example", "variant", "GPUs", "captured"), "not_yet": "not yet",
           "captured": "{model}, torch {torch}, {date}", "unnamed": "GPU not named, torch {torch}",
           "summary": "{total} GPU variants: {captured} captured, {missing} not yet "
                      "({one} of these need 1 GPU, {more} need 2 or more)."},
    "zh": {"head": ("示例", "变体", "GPU 数", "录制情况"), "not_yet": "尚未录制",
           "captured": "{model}，torch {torch}，{date}", "unnamed": "未记录 GPU 型号，torch {torch}",
           "summary": "共 {total} 个 GPU 变体：{captured} 个已录制，{missing} 个尚未录制"
                      "（其中 {one} 个需要 1 块 GPU，{more} 个需要 2 块或更多）。"},
}


def captured_text(record: snippets.Record | None, words: dict) -> str:
    if record is None:
        return words["not_yet"]
    if record.gpu is None:
        return words["unnamed"].format(torch=record.torch)
    model = f"{record.gpu.count}× {record.gpu.model}"
    return words["captured"].format(model=model, torch=record.torch, date=record.gpu.date)


def summary_text(found: list[Row], words: dict) -> str:
    missing = [row for row in found if row.record is None]
    return words["summary"].format(total=len(found), captured=len(found) - len(missing), missing=len(missing),
                                   one=sum(row.gpus <= 1 for row in missing),
                                   more=sum(row.gpus > 1 for row in missing))


def _table(header: tuple[str, ...], body: list[tuple[str, ...]]) -> nodes.table:
    table, group = nodes.table(classes=["vs-gpu-variants"]), nodes.tgroup(cols=len(header))
    table += group
    group += [nodes.colspec(colwidth=1) for _ in header]
    for section, lines in ((nodes.thead(), [header]), (nodes.tbody(), body)):
        for line in lines:
            row = nodes.row()
            for cell in line:
                entry = nodes.entry()
                entry += nodes.paragraph(cell, cell)
                row += entry
            section += row
        group += section
    return table


class GpuVariantsDirective(SphinxDirective):
    """``{gpu-variants}``: the table, after a line of counts."""

    def run(self) -> list[nodes.Node]:
        root = Path(self.config.verified_snippets_root)
        words = STRINGS.get((self.config.language or "en").split("_")[0], STRINGS["en"])
        found = rows(root)
        for row in found:
            self.env.note_dependency(str(root / row.snippet))
        body = [(row.snippet, row.variant, str(row.gpus), captured_text(row.record, words)) for row in found]
        summary = summary_text(found, words)
        return [nodes.paragraph(summary, summary), _table(words["head"], body)]


def setup(app: Sphinx) -> dict:
    app.add_directive("gpu-variants", GpuVariantsDirective)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
