"""The one read model of the compat results: every CPU variant against every release measured.

``make compat`` writes one measurement file per release (``refsite.measurements.compat_results`` holds the format
and its one writer). Everything that shows or checks those results reads them through a
:class:`Matrix`: the panel line and the page stamp, the compat table, the ``runs-since`` and
``same-since`` roles, the release chooser, the ``compat/v1`` export, ``compat --check`` and the
runner's "still current". A cell is a variant's result on one release, and it holds only while the
snippet's code and its record are the ones it was measured against; the release the records were
made with, :attr:`Matrix.pinned`, is *same* for every recorded variant (its record is verified there).

:attr:`Matrix.pinned` has one definition: the release of the torch every CPU record names
(``refsite.project.release_of`` cuts the local tag), which must be one release, and the project's pin when the
caller gives it (``Makefile``'s ``TORCH ?=``; ``refsite.project.pinned_torch``). Records that
disagree raise :class:`~refsite.snippets.errors.SpecError` naming them and the fix.
Standard library only.
"""

from __future__ import annotations

import dataclasses
import functools
from pathlib import Path

from refsite import snippets
from refsite.measurements import compat_results
from refsite.project import release_of
from refsite.measurements.compat_results import FAILS, SAME, UNMEASURED, Outcome, ReleaseRun
from refsite.snippets.records import Record
from refsite.snippets.spec import Spec, Variant

__all__ = ["Matrix", "MatrixVariant", "load", "release_of"]


@dataclasses.dataclass(frozen=True)
class MatrixVariant:
    """One CPU variant of a snippet, as the measurement files name and judge it."""

    spec: Spec
    variant: Variant
    snippet: str  # ``area/name.py``, relative to the snippets folder
    record: Record | None  # ``None``: not recorded yet (``make compat`` cannot measure it)
    code_sha256: str

    @property
    def key(self) -> str:
        return compat_results.variant_key(self.snippet, self.variant.id)

    @property
    def area(self) -> str:
        """The snippet's top folder (``distributed``); ``snippets`` for one outside any folder."""
        return self.snippet.split("/")[0] if "/" in self.snippet else "snippets"

    @functools.cached_property
    def record_sha256(self) -> str:
        return compat_results.record_digest(self.record) if self.record is not None else ""


@dataclasses.dataclass(frozen=True)
class Matrix:
    """Every CPU variant of a snippet tree and every measurement file of a folder."""

    runs: tuple[ReleaseRun, ...]  # oldest release first, installed or not
    variants: tuple[MatrixVariant, ...]  # in the order ``make compat`` runs them
    pinned: str  # the release every record was made with (``2.15.0``)
    files: tuple[Path, ...]  # what was read: measurement files, snippets, records

    @functools.cached_property
    def _by_key(self) -> dict[str, MatrixVariant]:
        return {v.key: v for v in self.variants}

    def variant(self, key: str) -> MatrixVariant:
        """The variant named ``key`` (``area/x.py [cpu]``); ``KeyError`` naming it if there is none."""
        try:
            return self._by_key[key]
        except KeyError:
            raise KeyError(f"{key}: no such CPU variant in the snippet tree") from None

    @property
    def measured(self) -> tuple[ReleaseRun, ...]:
        """The releases whose torch installed, oldest first (their results are the cells)."""
        return tuple(run for run in self.runs if run.installed)

    @functools.cached_property
    def recorded(self) -> tuple[MatrixVariant, ...]:
        return tuple(v for v in self.variants if v.record is not None)

    @functools.cached_property
    def _runs_by_release(self) -> dict[str, ReleaseRun]:
        return {release_of(run.torch): run for run in self.measured}

    @functools.cached_property
    def _by_snippet(self) -> dict[str, list[str]]:
        found: dict[str, list[str]] = {}
        for v in self.recorded:
            found.setdefault(v.snippet, []).append(v.key)
        return found

    def cell(self, key: str, release: str) -> Outcome | None:
        """The variant's result on ``release``: *same* on the pinned release, the stored result
        where it was measured on this code and record, ``None`` where there is none."""
        found = self.variant(key)
        if found.record is None:
            return None
        if release_of(release) == self.pinned:
            return Outcome(self.pinned, SAME)
        run = self._runs_by_release.get(release_of(release))
        return run.outcome(key, found.code_sha256, found.record_sha256) if run else None

    def has_results(self, key: str) -> bool:
        """Whether any release but the pinned one has a result for this code and record."""
        return any(self.cell(key, run.torch) is not None for run in self.measured
                   if release_of(run.torch) != self.pinned)

    def outcomes(self, key: str) -> list[Outcome]:
        """The variant's outcome on every installed release and on the pinned one, oldest first:
        ``UNMEASURED`` where a release has no result for this code and record."""
        releases = [release_of(run.torch) for run in self.measured]
        if self.pinned and self.pinned not in releases:
            releases.append(self.pinned)
        found = [self.cell(key, release) or Outcome(release, UNMEASURED) for release in releases]
        return sorted(found, key=lambda o: compat_results.release_key(o.release))

    def since(self, key: str, *, same: bool = False) -> Outcome | None:
        """The oldest release from which the variant runs (``same``: prints its record) on every
        release up to the pin, each with a result; ``None`` when no release but the pin has one.
        The release just older than it (if any) failed (differed) or has no result."""
        if not self.has_results(key):
            return None
        found = self.outcomes(key)
        holds = (lambda o: o.result == SAME) if same else (lambda o: o.result not in (FAILS, UNMEASURED))
        first = len(found) - 1
        while first > 0 and found[first - 1].result != UNMEASURED and holds(found[first - 1]):
            first -= 1
        return found[first]

    def works_since(self, snippets_used: list[str]) -> Outcome | None:
        """The newest of :meth:`since` over every CPU variant of the snippets ``snippets_used``
        (``area/x.py``): the release from which all of them run on every release up to the pin;
        ``None`` when they have no CPU variant, or one of them has no results yet."""
        keys = [key for snippet in snippets_used for key in self._by_snippet.get(snippet, ())]
        found = [self.since(key) for key in keys]
        if not found or any(outcome is None for outcome in found):
            return None
        return max(found, key=lambda o: compat_results.release_key(o.release))

    def lacking(self, release: str) -> tuple[str, ...] | None:
        """The recorded variants with no current result on ``release`` (every one when its file is
        missing or its torch did not install); ``None`` when the release has no file."""
        run = next((r for r in self.runs if release_of(r.torch) == release_of(release)), None)
        if run is None:
            return None
        return tuple(v.key for v in self.recorded
                     if not run.installed or run.outcome(v.key, v.code_sha256, v.record_sha256) is None)


def _variants(root: Path, skip_unreadable: bool) -> tuple[list[MatrixVariant], list[Path]]:
    found, files = [], []
    for path in snippets.snippet_paths(root):
        try:
            spec = snippets.read_spec(path)
            code = compat_results.code_digest(path)
        except snippets.SpecError:
            if skip_unreadable:  # the doc build: the snippet's own page reports it
                continue
            raise
        files.append(path)
        for variant in (v for v in spec.variants if v.device == "cpu"):
            record_path = spec.record_path(variant)
            try:
                record = snippets.read_record(record_path)
                files.append(record_path)
            except snippets.SpecError:
                record = None
            found.append(MatrixVariant(spec, variant, path.relative_to(root).as_posix(), record, code))
    return found, files


def pinned_release(variants: list[MatrixVariant], pin: str | None) -> str:
    """The release every CPU record was made with, which must be ``pin`` when it is given."""
    made_with: dict[str, list[str]] = {}
    for v in variants:
        if v.record is not None:
            made_with.setdefault(release_of(v.record.torch), []).append(v.key)
    expected = {release_of(pin)} if pin else set(made_with)
    wrong = {release: keys for release, keys in made_with.items() if release not in expected}
    if wrong or len(expected) > 1:
        named = "; ".join(f"torch {release}: {', '.join(keys[:3])}" + (f" and {len(keys) - 3} more" if len(keys) > 3 else "")
                          for release, keys in sorted(made_with.items()))
        want = f"the pin, torch {pin}" if pin else "one torch"
        raise snippets.SpecError(f"the CPU records were not all made with {want} ({named}); record them again "
                                 f"with the pinned torch: make outputs")
    return release_of(pin) if pin else next(iter(expected), "")


def load(compat_dir: Path, snippet_root: Path, *, pin: str | None = None, skip_unreadable: bool = False) -> Matrix:
    """Read every measurement file of ``compat_dir`` and every CPU variant under ``snippet_root``;
    ``pin``: the project's pinned torch, which every record must name (see the module's text)."""
    root = Path(snippet_root).resolve()
    variants, files = _variants(root, skip_unreadable)
    runs = compat_results.read_runs(Path(compat_dir))
    return Matrix(tuple(runs), tuple(variants), pinned_release(variants, pin),
                  tuple(run.path for run in runs) + tuple(files))
