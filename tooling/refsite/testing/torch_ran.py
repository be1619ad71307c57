"""Which torch ran the snippets, said at the end of a session (``make doctest``, ``make outputs``).

The records were made with the pinned torch. A GPU runner often runs its own torch
(``make doctest TORCH=system``), and a variant may print otherwise there; so when the torch that
ran is not the pin, the summary says so, and for each CPU variant that failed it says what the
compat measurement of that release (``docs/measurements/compat/torch-<release>.json``, written
by ``make compat``) already holds for it: the same difference, another result, or nothing yet.
"""

from __future__ import annotations

from pathlib import Path

from refsite import project, snippets
from refsite.project import release_of
from refsite.measurements import compat_matrix, compat_results as compat
from refsite.measurements.compat_matrix import Matrix


def compat_note(matrix: Matrix, ran: str, key: str, root: Path) -> str:
    """What the compat file of the release that ran says of the variant ``key``."""
    release = release_of(ran)
    run = next((r for r in matrix.runs if release_of(r.torch) == release), None)
    if run is None:
        where = (root / compat.COMPAT_DIR / f"torch-{release}.json").relative_to(root)
        return f"no compat measurement of torch {release} ({where} does not exist)"
    where = run.path.relative_to(root)
    if matrix.variant(key).record is None:
        return "no record to compare with"
    outcome = matrix.cell(key, release) if run.installed else None
    if outcome is None:
        return f"{where} holds no current result for it (make compat RELEASES={release})"
    if outcome.result == compat.SAME:
        return f"{where} says it printed the record there: this failure is new (this machine, or this build)"
    detail = f": {outcome.error_type}: {outcome.error}" if outcome.result == compat.FAILS else ""
    return f"{where} already shows it: {outcome.result}{detail}"


def summary(root: Path, ran: str, failed_cpu: list[tuple[snippets.Spec, snippets.Variant, str]]) -> list[str]:
    """The lines the session ends with: the torch that ran, and, off the pin, what it means."""
    try:
        pin = project.pinned_torch(root)
    except RuntimeError as exc:  # snippets outside the project's checkout (a test's tiny tree)
        return [f"torch {ran} ran the snippets (no pin to compare with: {exc})"]
    if release_of(ran) == pin:
        return [f"torch {ran} ran the snippets (the pin, {pin}, which made the records)"]
    lines = [f"torch {ran} ran the snippets, not the pin ({pin}) that made the records: a variant "
             f"may print otherwise on this release, and its failure then says so, not that the "
             f"snippet is wrong"]
    matrix = compat_matrix.load(root / compat.COMPAT_DIR, root / "snippets", pin=pin, skip_unreadable=True)
    for _spec, variant, rel in failed_cpu:
        key = compat.variant_key(rel, variant.id)
        lines.append(f"  {rel} [{variant.id}]: {compat_note(matrix, ran, key, root)}")
    return lines
