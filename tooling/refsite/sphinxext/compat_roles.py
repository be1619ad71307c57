"""Version notes in prose, taken from the compat measurement files instead of typed.

Two inline roles, for MyST Markdown (shown) or reStructuredText::

    renamed in torch {runs-since}`distributed/all_gather_single.py[gloo-cpu-2]`
    the default since torch {same-since}`tensors/weights_only.py`

Each names a snippet (path relative to ``verified_snippets_root``) and optionally a CPU variant
(default: the first CPU variant) and shows a minor release, ``2.13``: for ``runs-since`` the
oldest release from which the variant runs (does not fail) on every release measured up to the
pin; for ``same-since`` the oldest from which it prints what its record holds. A note that the
files do not support (no results for this version of the example, a release in that run not
measured on it, or a variant that runs the same on every release measured, so nothing happened
at a release), and one whose reference does not resolve or whose record is missing or stale
(:func:`refsite.snippets.resolve`), is a build warning naming the fix, so ``sphinx-build -W``
fails. Reads files only.
"""

from __future__ import annotations

import typing
from pathlib import Path

from docutils import nodes
from sphinx.application import Sphinx

from refsite.sphinxext import compat_notes
from refsite.measurements import compat_results
from refsite import snippets
from refsite.measurements.compat_matrix import Matrix
from refsite.measurements.compat_results import UNMEASURED
from refsite.sphinxext.recorded_quotes import QuoteError, checked_role
from refsite import __version__


def since(root: Path, matrix: Matrix, text: str, kind: str) -> tuple[str, list[Path]]:
    """The release a ``runs-since`` or ``same-since`` note shows, and the files it read."""
    ref = snippets.resolve(text, root, device="cpu")  # the default: the first CPU variant
    spec, rel, variant_id = ref.spec, ref.rel, ref.variant.id
    ref.current()  # a missing or stale record is the note's problem
    matrix_key = compat_results.variant_key(rel, variant_id)
    first = matrix.since(matrix_key, same=kind == "same-since")
    fix = "run 'make compat' (see docs/measurements/compat/releases.txt)"
    if first is None:
        raise QuoteError(f"{rel} [{variant_id}] has no compat results for this version of the example; {fix}")
    found = matrix.outcomes(matrix_key)
    at = found.index(first)
    if at == 0:
        raise QuoteError(f"{rel} [{variant_id}] {'runs' if kind == 'runs-since' else 'prints the same'} on every "
                         f"release measured ({compat_results.span(found)}): no release to name; rephrase the note")
    if found[at - 1].result == UNMEASURED:
        raise QuoteError(f"{rel} [{variant_id}]: torch {found[at - 1].release} has no result for this version "
                         f"of the example; {fix}")
    return compat_results.short_release(first.release), [spec.path, ref.record_path,
                                                                 *(run.path for run in matrix.runs)]


def _role(kind: str):
    def check(env: typing.Any, text: str) -> tuple[str, list[Path]]:
        return since(Path(env.config.verified_snippets_root).resolve(), compat_notes.matrix_of(env), text, kind)

    def node(rawtext: str, text: str, classes: list[str]) -> nodes.Node:
        return nodes.inline(rawtext, text, classes=["vs-since", *classes])

    return checked_role(kind, check, node, "note", "compat_roles")


def setup(app: Sphinx) -> dict[str, typing.Any]:
    """Register the ``runs-since`` and ``same-since`` roles (and the compat files' location)."""
    app.setup_extension("refsite.sphinxext.compat_notes")
    app.add_role("runs-since", _role("runs-since"))
    app.add_role("same-since", _role("same-since"))
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
