"""What the compat measurement files say, on the pages: a line per snippet panel, a stamp per page,
and a table per area (``{compat-table} AREA``).

The panel line: "Same output on torch 2.6–2.15; differs on 2.5 (diff); fails on 2.4:
AttributeError: ...", made from :mod:`compat_results` and the variant's record (the release the
record was made with counts as *same*). The stamp, at the top of every page that shows a recorded
output: the torch, backends, devices and world sizes of the records it shows, and the dates of
the compat runs. Reads files only; never imports torch.
"""

from __future__ import annotations

import typing
import weakref
from pathlib import Path

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.errors import ExtensionError
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

from refsite.measurements import compat_matrix, compat_results
from refsite import interface_words, snippets
from refsite.measurements.compat_matrix import Matrix
from refsite.measurements.compat_results import DIFFERS, FAILS, SAME, Outcome, ReleaseRun
from refsite.snippets import Record, Spec, Variant, references
from refsite.sphinxext import build_inputs
from refsite.sphinxext.page_language import page_words
from refsite import __version__

logger = logging.getLogger(__name__)

#: Where a snippet block keeps what its records say, for the page stamp.
RECORDS_ATTRIBUTE = "vs_records"


#: The matrix of each environment's current build (read again in its next build).
_MATRICES: weakref.WeakKeyDictionary[BuildEnvironment, Matrix] = weakref.WeakKeyDictionary()


def matrix_of(env: BuildEnvironment) -> Matrix:
    """The compat results of this build (:mod:`refsite.measurements.compat_matrix`), read once per
    build (again in the next one, whose files may have changed)."""
    found = _MATRICES.get(env)
    if found is None:
        try:
            found = compat_matrix.load(Path(env.config.verified_snippets_compat_dir),
                                       Path(env.config.verified_snippets_root),
                                       pin=env.config.verified_snippets_pin or None, skip_unreadable=True)
        except snippets.SpecError as exc:
            raise ExtensionError(f"compat results: {exc}") from None
        _MATRICES[env] = found
    return found


def _forget_matrix(app: Sphinx, env: BuildEnvironment, *_args: object) -> None:
    _MATRICES.pop(env, None)


def panel_outcomes(matrix: Matrix, spec: Spec, variant: Variant, root: Path) -> list[Outcome] | None:
    """A panel's outcomes, oldest release first; ``None`` while no release has a result for
    this version of the example."""
    key = compat_results.variant_key(spec.path.relative_to(root.resolve()).as_posix(), variant.id)
    return matrix.outcomes(key) if matrix.has_results(key) else None


#: The interface words of a page (``refsite.sphinxext.page_language.page_words``).
Words = typing.Mapping[str, str]
#: The most characters a compat line has; older releases are summed up to keep it there.
LINE_CHARS = 120


#: The words of each kind of run a repeated result counts (compat_results.kind_of).
KIND_WORDS = {compat_results.SAME: "compat.kind_same", compat_results.DIFFERS: "compat.kind_differs",
              compat_results.FAILS: "compat.kind_fails", compat_results.HANGS: "compat.kind_hangs"}


def repeated_text(outcome: Outcome, words: Words, *, release: bool = True) -> str:
    """A result that varied from run to run: "same in 11 of 12 runs on 2.6, hangs in 1"; without
    the release (a fold's line, which names it first) "same in 11 of 12 runs, hangs in 1"."""
    (kind, count), *others = outcome.counts
    text = words["compat.repeated" if release else "compat.repeated_runs"].format(
        kind=words[KIND_WORDS[kind]], k=count, n=outcome.runs, span=compat_results.short_release(outcome.release))
    return text + "".join(words["compat.repeated_other"].format(kind=words[KIND_WORDS[other]], k=n)
                          for other, n in others)


def _part(label: str, group: list[Outcome], first: bool, words: Words) -> tuple[str, str]:
    span = compat_results.span(group)
    if group[0].counts:
        return repeated_text(group[0], words), ""
    if label == SAME:
        return words["compat.same_again" if not first else "compat.same"].format(span=span), ""
    if label == DIFFERS:
        return words["compat.differs"].format(span=span), ""
    return words["compat.fails"].format(span=span), group[-1].error_type


def _tail(groups: list[tuple[str, list[Outcome]]], words: Words) -> tuple[str, str]:
    """One part for several older groups (newest first, none unmeasured): "fails on 2.0–2.6"
    when each failed, else "mixed"."""
    releases = [o for _, group in groups for o in group]
    span = compat_results.span(sorted(releases, key=lambda o: compat_results.release_key(o.release)))
    kind = "compat.fails_any" if all(label.startswith(FAILS) for label, _ in groups) else "compat.mixed"
    return words[kind].format(span=span), ""


def line_parts(found: list[Outcome] | None, words: Words) -> list[tuple[str, str]]:
    """The compat line of one panel as (words, exception type) parts, newest releases first so
    that it opens with the pinned release's own *same*; a failure names its exception type (in
    code font), the messages are in the details below the line. A line longer than
    :data:`LINE_CHARS` sums up its oldest groups in one part ("fails on 2.0–2.6", "mixed on ...")."""
    if found is None:
        return [(words["compat.no_results"], "")]
    groups = list(reversed(line_groups(found)))
    measured = [(label, group) for label, group in groups if label != compat_results.UNMEASURED]

    def line(keep: int, said: Words) -> list[tuple[str, str]]:
        parts = [_part(label, group, not number, said) for number, (label, group) in enumerate(measured[:keep])]
        return parts if keep == len(measured) else [*parts, _tail(measured[keep:], said)]

    # Both languages sum up the same spans: the budget is the English line's (the longer one).
    english = interface_words.words("en")
    keep = len(measured)
    while keep > 1 and len(_joined(line(keep, english), english)) > LINE_CHARS:
        keep -= 1
    return line(keep, words)


def _joined(parts: list[tuple[str, str]], words: Words) -> str:
    return words["compat.joiner"].join(text + error for text, error in parts)


def line_groups(found: list[Outcome]) -> list[tuple[str, list[Outcome]]]:
    """Consecutive releases with the same result, failures grouped by their exception type (the
    messages of one failure often differ by a C++ line, a port or a path from release to
    release); an unmeasured release is a group of its own."""
    return compat_results.groups(found, same_message=False)


def full_error(outcome: Outcome) -> str:
    return f"{outcome.error_type}: {outcome.error}" if outcome.error else outcome.error_type


def details(found: list[Outcome], words: Words) -> str:
    """Every release that did not print the record, newest first: its error whole, or "differs"
    and the diff ("" when every release printed the same)."""
    lines = []
    for outcome in reversed(found):
        release = f"torch {compat_results.short_release(outcome.release)}: "
        if outcome.counts:
            lines.append(release + repeated_text(outcome, words, release=False))
        if outcome.result == FAILS:
            lines.append(release + full_error(outcome))
        elif outcome.result == DIFFERS:
            lines += [release + words["compat.details_differs"], *(f"  {line}" for line in outcome.diff)]
    return "\n".join(lines)


def line_text(found: list[Outcome] | None, words: Words) -> str:
    """The compat line of one panel, as text."""
    return _joined(line_parts(found, words), words)


def compat_line(found: list[Outcome] | None, words: Words) -> nodes.container:
    """The panel's compat line, and below it one fold with the results by release."""
    box = nodes.container(classes=["vs-compat"])
    line = nodes.paragraph("", "", classes=["vs-compat-line"])
    for number, (text, error) in enumerate(line_parts(found, words)):
        line += nodes.Text((words["compat.joiner"] if number else "") + text)
        if error:
            line += nodes.literal(error, error)
    box += line
    if text := details(found or [], words):
        box += nodes.raw("", f'<details class="vs-compat-diff"><summary>{words["compat.details_summary"]}</summary>',
                         format="html")
        box += nodes.literal_block(text, text, classes=["vs-compat-diff-text"])
        box += nodes.raw("", "</details>", format="html")
    return box


def record_facts(record: Record) -> tuple[str, str, str, int]:
    """What the page stamp needs of one shown record."""
    return (record.torch, record.backend or "", record.device, record.world_size)


def page_stamp(facts: list[tuple[str, str, str, int]], runs: tuple[ReleaseRun, ...],
               words: Words) -> nodes.paragraph:
    """The stamp of a page: its records' torch, backend/device pairs and world sizes, and the
    compat runs' dates and releases."""
    torches = ", ".join(sorted({f[0] for f in facts}))
    setups = ", ".join(sorted({f"{backend} {device}".strip() for _, backend, device, _ in facts}))
    found = sorted({f[3] for f in facts})
    sizes = words["compat.world_size" if len(found) == 1 else "compat.world_sizes"].format(
        sizes=", ".join(map(str, found)))
    text = words["compat.stamp"].format(torch=torches, setups=setups, sizes=sizes)
    measured = [run for run in runs if run.installed]
    if measured:
        dates = sorted({run.date for run in measured})
        dates_text = dates[0] if len(dates) == 1 else f"{dates[0]}–{dates[-1]}"
        span = compat_results.span([Outcome(run.torch, SAME) for run in measured])
        text += words["compat.stamp_compat"].format(dates=dates_text, span=span)
    else:
        text += words["compat.stamp_no_compat"]
    return nodes.paragraph(text, text, classes=["vs-page-stamp"])


def add_page_stamp(app: Sphinx, doctree: nodes.document) -> None:
    """``doctree-read``: the stamp after the page's title, from the records its snippets show."""
    facts = [tuple(f) for block in doctree.findall(nodes.container)
             for f in block.get(RECORDS_ATTRIBUTE, ())]
    if not facts:
        return
    # "older releases run on ...": the page's {snippet} blocks noted the measurements folder
    stamp = page_stamp(facts, matrix_of(app.env).measured, page_words(app))
    section = next(iter(doctree.findall(nodes.section)), None)
    if section is not None and section.children and isinstance(section[0], nodes.title):
        section.insert(1, stamp)
    else:
        doctree.insert(0, stamp)


class CompatTableDirective(SphinxDirective):
    """``{compat-table} AREA``: every CPU variant of the snippets under AREA, one column per
    release measured, each cell the variant's result on that release: the pinned release
    (where every record is verified) first, then the others newest first, so the releases a
    reader most likely runs are in view without scrolling sideways."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        root = Path(self.config.verified_snippets_root).resolve()
        build_inputs.note_tree(self.env, "snippets", "measurements")  # new ones too
        words = page_words(self)
        matrix = matrix_of(self.env)
        runs = matrix.measured[::-1]  # newest first
        releases = [compat_results.short_release(run.torch) for run in runs]
        rows = []
        for path in snippets.snippet_paths(root / self.arguments[0]):
            rel = path.relative_to(root).as_posix()
            # A problem is reported by the snippet's own page too (a stale record is still
            # compared there); the table must not crash.
            try:
                cpu = [ref for ref in references.resolve_all(rel, root) if ref.variant.device == "cpu"]
                for ref in cpu:
                    ref.current(stale_ok=True)
            except references.ReferenceProblem as exc:
                logger.warning(f"compat table: {exc}", location=(self.env.docname, self.lineno),
                               type="compat_notes", subtype="record")
                continue
            for ref in cpu:
                key = compat_results.variant_key(rel, ref.variant.id)
                cells = [matrix.cell(key, run.torch) for run in runs]
                rows.append([f"{rel} [{ref.variant.id}]", "✓",
                             *("–" if cell is None else {SAME: "✓", DIFFERS: "Δ", FAILS: "✗"}[cell.result]
                               for cell in cells)])
        if not rows:
            return []
        header = [words["compat.table_example"], compat_results.short_release(matrix.pinned), *releases]
        table = nodes.table(classes=["vs-compat-table"])
        group = nodes.tgroup(cols=len(header))
        table += group
        for _ in header:
            group += nodes.colspec(colwidth=1)
        group += nodes.thead("", _row(header))
        group += nodes.tbody("", *[_row(row) for row in rows])
        legend = nodes.paragraph(words["compat.table_legend"], words["compat.table_legend"],
                                 classes=["vs-compat-legend"])
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
    # The project's pinned torch (refsite.project.pinned_torch): every CPU record must name it;
    # empty: the records' own release, which must be one.
    app.add_config_value("verified_snippets_pin", "", "env", types=frozenset({str}))
    app.connect("env-before-read-docs", _forget_matrix)
    app.add_directive("compat-table", CompatTableDirective)
    app.connect("config-inited", _resolve_dir)
    app.connect("doctree-read", add_page_stamp)
    app.setup_extension("refsite.sphinxext.compat_data")  # the same results as data: compat/v1/
    app.setup_extension("refsite.sphinxext.compat_changes")  # what changed between two releases
    app.setup_extension("refsite.sphinxext.build_inputs")  # the pages above read again when their trees change
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
