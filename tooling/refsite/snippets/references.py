"""A snippet reference, ``AREA/FILE.py[VARIANT]``, worked out in one place for every reader.

The pages name a snippet variant this way (``{snippet}``, ``{recorded}``, ``{runs-since}``), and
so do the page checks and the runners. :func:`resolve` turns a reference into a
:class:`Resolved`: the snippet's :class:`~refsite.snippets.spec.Spec`, the variant (by id; the
first one, the one its ``Run:`` line runs, when none is named), the record's path, the record
if it reads, and why it cannot be shown (missing, unreadable or stale). A reference that names
no snippet, a snippet with an invalid header or a variant the snippet does not declare raises
:class:`ReferenceProblem`; a record's problem is kept in the result's ``problem``, and
:meth:`Resolved.current` raises it. Every message names the file and the fix.

Readers that walk every variant of a snippet use :func:`read_snippet` and :func:`record_of`,
the two halves of :func:`resolve`. Standard library only.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from refsite.snippets.errors import SpecError
from refsite.snippets.records import FIX_COMMAND, Record, read_record, stale_reason
from refsite.snippets.spec import Spec, Variant, read_spec

#: ``AREA/FILE.py`` and an optional ``[VARIANT]``.
_REFERENCE = re.compile(r"^(?P<path>[^\s\[\]:]+\.py)(?:\[(?P<variant>[\w-]*)\])?$")

#: What a ``ReferenceProblem``'s ``kind`` can say: the reference itself (``syntax``, ``no-snippet``,
#: ``header``, ``no-variant``), then its record (``no-record``, ``unreadable``, ``stale``).
KINDS = ("syntax", "no-snippet", "header", "no-variant", "no-record", "unreadable", "stale")


class ReferenceProblem(SpecError):
    """Why a reference does not resolve, or why its record cannot be shown; ``kind`` is one
    of :data:`KINDS`, ``path`` the file it is about, the message names the file and the fix."""

    def __init__(self, kind: str, message: str, path: Path, reason: str | None = None) -> None:
        super().__init__(message)
        self.kind = kind
        self.path = path
        self.reason = reason  # a stale record's: what changed since it was written


@dataclasses.dataclass(frozen=True)
class Resolved:
    """One variant of one snippet, and its record."""

    rel: str  # the snippet's path under the snippets root, as the reference wrote it
    spec: Spec
    variant: Variant
    record: Record | None  # the record as read; None when it is missing or does not read
    problem: ReferenceProblem | None  # why the record cannot be shown; None when it is current

    @property
    def reference(self) -> str:
        """The reference in full: ``AREA/FILE.py[VARIANT]``."""
        return f"{self.rel}[{self.variant.id}]"

    @property
    def record_path(self) -> Path:
        return self.spec.record_path(self.variant)

    @property
    def missing(self) -> bool:
        """No record was ever written for this variant."""
        return self.problem is not None and self.problem.kind == "no-record"

    @property
    def stale(self) -> str | None:
        """Why the record no longer matches the snippet's source, or ``None``."""
        return self.problem.reason if self.problem is not None and self.problem.kind == "stale" else None

    def current(self, *, stale_ok: bool = False) -> Record:
        """The record, or :class:`ReferenceProblem` saying why it cannot be shown (a stale one
        is returned with ``stale_ok``)."""
        if self.record is None or (self.problem is not None and not stale_ok):
            assert self.problem is not None
            raise self.problem
        return self.record


def parse(reference: str) -> tuple[str, str | None]:
    """``AREA/FILE.py[VARIANT]`` -> (``AREA/FILE.py``, ``VARIANT`` or ``None``)."""
    match = _REFERENCE.match(reference.strip())
    if match is None:
        raise ReferenceProblem("syntax", f"cannot parse the snippet reference {reference!r}; "
                                         f"fix: write 'AREA/FILE.py' or 'AREA/FILE.py[VARIANT]'", Path(reference))
    return match.group("path"), match.group("variant") or None


def read_snippet(root: Path, rel: str) -> Spec:
    """The header of snippet ``rel`` under ``root``."""
    path = (Path(root) / rel).resolve()
    if not path.is_relative_to(Path(root).resolve()):
        raise ReferenceProblem("no-snippet", f"snippet {rel!r} is outside the snippets root {root}; fix: "
                                             f"name a snippet under it (paths are relative to it)", path)
    if not path.is_file():
        raise ReferenceProblem("no-snippet", f"snippet {rel!r} not found in {root}; fix: correct the "
                                             f"path (it is relative to the snippets root) or add the snippet", path)
    try:
        return read_spec(path)
    except SpecError as exc:
        raise ReferenceProblem("header", f"snippet {rel!r} has an invalid header: {exc}; fix: correct "
                                         f"the module docstring of {path.name}", path) from None


def variant_of(spec: Spec, rel: str, variant_id: str | None, device: str | None = None) -> Variant:
    """The variant ``variant_id`` of ``spec`` (the first one when ``None``), of those on
    ``device`` when given."""
    choices = [v for v in spec.variants if device is None or v.device == device]
    if variant_id is None and choices:
        return choices[0]
    found = next((v for v in choices if v.id == variant_id), None)
    if found is None:
        which = f"{device.upper()} variant" if device else "variant"
        raise ReferenceProblem("no-variant", f"snippet {rel!r} has no {which} {variant_id or ''!r} (it has "
                                             f"{', '.join(v.id for v in choices) or 'none'}); fix: name one "
                                             f"of those, or declare it in the Variants: line of {spec.path.name}",
                               spec.path)
    return found


def _where(variant: Variant) -> str:
    return f" on a machine with {variant.gpus} GPU(s)" if variant.device != "cpu" else ""


def fix(variant: Variant) -> str:
    """The command that (re)writes ``variant``'s record, and where it must run."""
    return f"'{FIX_COMMAND}'{_where(variant)}"


def record_of(spec: Spec, variant: Variant, rel: str = "") -> Resolved:
    """``variant``'s record and, when it cannot be shown, why (never raises)."""
    rel = rel or spec.path.name
    path = spec.record_path(variant)
    try:
        record = read_record(path)
    except SpecError as exc:
        kind = "unreadable" if path.exists() else "no-record"
        return Resolved(rel, spec, variant, None, ReferenceProblem(kind, f"{exc}{_where(variant)}", path))
    reason = stale_reason(spec, record)
    if reason is not None:
        problem = ReferenceProblem("stale", f"{path.name} is stale ({reason}); fix: run {fix(variant)}",
                                   path, reason)
        return Resolved(rel, spec, variant, record, problem)
    return Resolved(rel, spec, variant, record, None)


def resolve(reference: str, root: Path, *, device: str | None = None) -> Resolved:
    """``AREA/FILE.py[VARIANT]`` (``VARIANT`` optional) under the snippets ``root``; ``device``
    limits the variants it may name (``cpu``) and picks the first of those by default."""
    rel, variant_id = parse(reference)
    spec = read_snippet(root, rel)
    return record_of(spec, variant_of(spec, rel, variant_id, device), rel)


def resolve_all(rel: str, root: Path) -> list[Resolved]:
    """Every variant of snippet ``rel`` under ``root``, in the order it declares them."""
    spec = read_snippet(root, rel)
    return [record_of(spec, variant, rel) for variant in spec.variants]
