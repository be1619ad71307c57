"""``{gpu-variants}``: every GPU variant of the snippets, the GPUs it needs, and whether it has
been captured on a GPU (the GPU, torch and day its record names) or not yet, and why not where a
capture on a GPU machine failed it (``docs/measurements/gpu/``, :mod:`refsite.measurements.gpu_captures`).

Made from the snippets' headers, their records and the capture files, at every build, so the
GPU runners page says what is captured without a hand-kept list. A record made with another
torch than the pin is shown with its own torch (and stays until a runner with the pin records
the variant again); one made before records named their GPU says so.
"""

from __future__ import annotations

import dataclasses
import typing
from pathlib import Path

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

from refsite import __version__, snippets
from refsite.snippets import SpecError, references
from refsite.measurements import gpu_captures
from refsite.sphinxext import build_inputs
from refsite.sphinxext.page_language import page_words

logger = logging.getLogger(__name__)


@dataclasses.dataclass(frozen=True)
class Row:
    """One GPU variant and what its record says, if it has one."""

    snippet: str  # under the snippets root
    variant: str
    gpus: int
    record: snippets.Record | None  # a current record (its source digest matches), or None
    failed: tuple[gpu_captures.GpuCapture, str] | None = None  # the newest capture that failed it, why


def rows(root: Path, captures: list[gpu_captures.GpuCapture] = ()) -> list[Row]:
    """Every GPU variant under ``root``, in path order; a stale record counts as none. Without a
    record, the newest of ``captures`` (newest first) that failed the variant says why."""
    found = []
    failures = [(capture, capture.failed()) for capture in captures]  # once each, not per variant
    for path in snippets.snippet_paths(root):
        rel = path.relative_to(root).as_posix()
        for ref in references.resolve_all(rel, root):
            if ref.variant.device == "cpu":
                continue
            record = None if ref.missing or ref.stale else ref.current()  # an unreadable one raises
            key = gpu_captures.variant_key(rel, ref.variant.id)
            failed = next(((capture, failed[key].reason or "") for capture, failed in failures
                           if key in failed), None)
            found.append(Row(rel, ref.variant.id, ref.variant.gpus, record, failed))
    return found


def captured_text(record: snippets.Record | None, words: typing.Mapping[str, str],
                  failed: tuple[gpu_captures.GpuCapture, str] | None = None) -> str:
    if record is None and failed is not None:
        capture, reason = failed
        return words["gpu_variants.failed"].format(model=capture.gpu["model"], torch=capture.provenance.torch,
                                                   date=capture.provenance.date, reason=reason)
    if record is None:
        return words["gpu_variants.not_yet"]
    if record.gpu is None:
        return words["gpu_variants.unnamed"].format(torch=record.torch)
    model = f"{record.gpu.count}× {record.gpu.model}"
    return words["gpu_variants.captured"].format(model=model, torch=record.torch, date=record.gpu.date)


def summary_text(found: list[Row], words: typing.Mapping[str, str]) -> str:
    missing = [row for row in found if row.record is None]
    return words["gpu_variants.summary"].format(total=len(found), captured=len(found) - len(missing),
                                                missing=len(missing), one=sum(row.gpus <= 1 for row in missing),
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
        words = page_words(self)
        # docs/measurements/gpu, beside the compat folder
        folder = Path(self.config.verified_snippets_compat_dir).parent / gpu_captures.GPU_DIR.name
        try:
            captures = gpu_captures.captures_in(folder)
        except SpecError as exc:  # the table stands without them; the warning names the file
            logger.warning(str(exc), location=(self.env.docname, self.lineno), type="gpu_variants", subtype="capture")
            captures = []
        found = rows(root, captures)
        build_inputs.note_tree(self.env, "snippets", "measurements")  # new ones too
        body = [(row.snippet, row.variant, str(row.gpus), captured_text(row.record, words, row.failed))
                for row in found]
        summary = summary_text(found, words)
        header = tuple(words[f"gpu_variants.head_{column}"]
                       for column in ("example", "variant", "gpus", "captured"))
        return [nodes.paragraph(summary, summary), _table(header, body)]


def setup(app: Sphinx) -> dict:
    app.add_directive("gpu-variants", GpuVariantsDirective)
    app.setup_extension("refsite.sphinxext.build_inputs")
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
