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
from refsite.snippets import compat_results as compat


def _release(version: str) -> str:
    """``2.11.0+cu130`` -> ``2.11.0``."""
    return version.split("+")[0]


def compat_note(root: Path, ran: str, spec: snippets.Spec, variant: snippets.Variant, rel: str) -> str:
    """What the compat file of the release that ran says of ``variant``."""
    path = root / compat.COMPAT_DIR / f"torch-{_release(ran)}.json"
    if not path.exists():
        return f"no compat measurement of torch {_release(ran)} ({path.relative_to(root)} does not exist)"
    run = compat.read_run(path)
    record_path = spec.record_path(variant)
    if not record_path.exists():
        return "no record to compare with"
    record = snippets.read_record(record_path)
    outcome = run.outcome(compat.variant_key(rel, variant.id), compat.code_digest(spec.path),
                          compat.record_digest(record))
    where = path.relative_to(root)
    if outcome is None:
        return f"{where} holds no current result for it (make compat RELEASES={_release(ran)})"
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
    if _release(ran) == pin:
        return [f"torch {ran} ran the snippets (the pin, {pin}, which made the records)"]
    lines = [f"torch {ran} ran the snippets, not the pin ({pin}) that made the records: a variant "
             f"may print otherwise on this release, and its failure then says so, not that the "
             f"snippet is wrong"]
    for spec, variant, rel in failed_cpu:
        lines.append(f"  {rel} [{variant.id}]: {compat_note(root, ran, spec, variant, rel)}")
    return lines
