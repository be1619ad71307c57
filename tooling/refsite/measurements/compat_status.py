"""Which CPU variants lack a current compat result, per release: ``python -m refsite.commands.compat.cli
--check`` and the table ``make compat`` ends with.

A variant has a current result on a release when that release's measurement file holds one
measured on the variant's code and record as they are now (``compat_results.is_current``). A
release whose file is missing, or whose torch could not be installed, has none for any variant.
A variant with no record yet cannot be measured (``make compat`` skips it): it is counted apart.
Standard library only; reads files, never runs anything.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from refsite.measurements import compat_matrix
from refsite.measurements.compat_matrix import Matrix

#: How many variant names the table shows per release.
NAMES_SHOWN = 3


@dataclasses.dataclass(frozen=True)
class ReleaseStatus:
    """One release of the list: what its file says, and the recorded variants it has no
    current result for."""

    release: str
    state: str  # "measured", "missing" (no file) or "not installed"
    lacking: tuple[str, ...]  # variant keys


def statuses(releases: list[str], matrix: Matrix) -> list[ReleaseStatus]:
    """Per release of ``releases`` (``2.4.1``), the recorded variants without a current result."""
    result = []
    for release in releases:
        lacking = matrix.lacking(release)
        run = next((r for r in matrix.runs if compat_matrix.release_of(r.torch) == release), None)
        state = "missing" if run is None else "measured" if run.installed else "not installed"
        result.append(ReleaseStatus(release, state, lacking if lacking is not None else
                                    tuple(v.key for v in matrix.recorded)))
    return result


def table(found: list[ReleaseStatus], matrix: Matrix) -> list[str]:
    """The check's lines: a heading, one line per release, and the variants with no record."""
    recorded = len(matrix.recorded)
    lines = [f"compat results per release ({recorded} recorded CPU variants):"]
    width = max((len(s.release) for s in found), default=0)
    for status in found:
        head = f"  torch {status.release:<{width}}  "
        if not status.lacking:
            lines.append(head + "every variant has a current result")
            continue
        said = {"missing": "no measurement file; ", "not installed": "torch could not be installed; "}
        names = ", ".join(status.lacking[:NAMES_SHOWN])
        more = len(status.lacking) - NAMES_SHOWN
        lines.append(head + said.get(status.state, "") + f"{len(status.lacking)} lack a current result: "
                     + names + (f" and {more} more" if more > 0 else ""))
    unrecorded = [v.key for v in matrix.variants if v.record is None]
    if unrecorded:
        lines.append(f"  not recorded yet, so not measured: {', '.join(unrecorded)}")
    if any(s.lacking for s in found):
        lines.append("run 'make compat' to measure them (it keeps every result still current)")
    return lines


def check(releases: list[str], compat_dir: Path, snippet_root: Path, pin: str | None = None) -> tuple[bool, list[str]]:
    """Whether every recorded CPU variant has a current result on every release, and the
    table that says so (``pin``: the project's pinned torch, which every record must name)."""
    matrix = compat_matrix.load(compat_dir, snippet_root, pin=pin)
    found = statuses(releases, matrix)
    return not any(s.lacking for s in found), table(found, matrix)
