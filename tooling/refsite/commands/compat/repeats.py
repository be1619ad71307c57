"""When one run alone does not settle a variant's result on a release, and ``make compat`` runs
it :data:`~refsite.measurements.compat_results.REPEATS` times alone to store "k of N" instead
(``refsite.commands.compat.run``; the stored form: ``compat_results.repeated``)."""

from __future__ import annotations

from refsite.measurements import compat_results


def reason(alone: dict, beside: dict | None, earlier: dict | None, asked: bool) -> str:
    """Why one run alone does not settle a variant's result ("" when it does): its kind (same,
    differs, fails, hangs) changed from the run beside others, or against the file's current
    result, or that result was itself repeated, or ``--repeat`` asked for it."""
    kind = compat_results.kind_of
    if asked:
        return "asked for with --repeat"
    if earlier is not None and "repeated" in earlier:
        return "its stored result varied from run to run"
    if beside is not None and kind(beside) != kind(alone):
        return f"{kind(beside)} beside other runs, {kind(alone)} alone"
    if earlier is not None and kind(earlier) != kind(alone):
        return f"{kind(alone)} now, {kind(earlier)} in the file"
    return ""
