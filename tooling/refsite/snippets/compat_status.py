"""Which CPU variants lack a current compat result, per release: ``python -m refsite.testing.compat
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

from refsite import snippets
from refsite.snippets import compat_results
from refsite.snippets.records import Record
from refsite.snippets.spec import Spec, Variant

#: How many variant names the table shows per release.
NAMES_SHOWN = 3


@dataclasses.dataclass(frozen=True)
class CpuVariant:
    """One CPU variant of a snippet, as the measurement files name and judge it."""

    spec: Spec
    variant: Variant
    snippet: str  # ``area/name.py``, relative to the snippets folder
    record: Record | None  # ``None``: not recorded yet
    code_sha256: str

    @property
    def key(self) -> str:
        return compat_results.variant_key(self.snippet, self.variant.id)

    @property
    def area(self) -> str:
        """The snippet's top folder (``distributed``); ``snippets`` for one outside any folder."""
        return self.snippet.split("/")[0] if "/" in self.snippet else "snippets"


def cpu_variants(root: Path, *, skip_unreadable: bool = False) -> list[CpuVariant]:
    """Every CPU variant of every snippet under ``root``, in the order ``make compat`` runs them;
    a snippet whose header does not read raises ``SpecError``, or is left out with
    ``skip_unreadable`` (the doc build: the snippet's page reports it)."""
    found = []
    for path in snippets.snippet_paths(root):
        try:
            spec = snippets.read_spec(path)
            code = compat_results.code_digest(path)
        except snippets.SpecError:
            if skip_unreadable:
                continue
            raise
        for variant in (v for v in spec.variants if v.device == "cpu"):
            try:
                record = snippets.read_record(spec.record_path(variant))
            except snippets.SpecError:
                record = None
            found.append(CpuVariant(spec, variant, path.relative_to(root).as_posix(), record, code))
    return found


@dataclasses.dataclass(frozen=True)
class ReleaseStatus:
    """One release of the list: what its file says, and the recorded variants it has no
    current result for."""

    release: str
    state: str  # "measured", "missing" (no file) or "not installed"
    lacking: tuple[str, ...]  # variant keys


def statuses(releases: list[str], runs: list[compat_results.ReleaseRun],
             variants: list[CpuVariant]) -> list[ReleaseStatus]:
    """Per release of ``releases`` (``2.4.1``), the recorded variants of ``variants`` without a
    current result in ``runs``."""
    by_release = {run.torch.split("+")[0]: run for run in runs}
    recorded = [v for v in variants if v.record is not None]
    result = []
    for release in releases:
        run = by_release.get(release)
        if run is None or not run.installed:
            state = "missing" if run is None else "not installed"
            result.append(ReleaseStatus(release, state, tuple(v.key for v in recorded)))
            continue
        lacking = tuple(v.key for v in recorded
                        if run.outcome(v.key, v.code_sha256, compat_results.record_digest(v.record)) is None)
        result.append(ReleaseStatus(release, "measured", lacking))
    return result


def table(found: list[ReleaseStatus], variants: list[CpuVariant]) -> list[str]:
    """The check's lines: a heading, one line per release, and the variants with no record."""
    recorded = sum(v.record is not None for v in variants)
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
    unrecorded = [v.key for v in variants if v.record is None]
    if unrecorded:
        lines.append(f"  not recorded yet, so not measured: {', '.join(unrecorded)}")
    if any(s.lacking for s in found):
        lines.append("run 'make compat' to measure them (it keeps every result still current)")
    return lines


def check(releases: list[str], compat_dir: Path, snippet_root: Path) -> tuple[bool, list[str]]:
    """Whether every recorded CPU variant has a current result on every release, and the
    table that says so."""
    variants = cpu_variants(snippet_root)
    found = statuses(releases, compat_results.read_runs(compat_dir), variants)
    return not any(s.lacking for s in found), table(found, variants)
