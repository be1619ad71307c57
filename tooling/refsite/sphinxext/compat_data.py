"""The compat results as data on the built site: ``compat/v1/`` (``refsite.measurements.compat_export``
says what its files hold), written into each language's output at the end of an HTML build, so
that both trees serve the same files. Reads files only; never imports torch.
"""

from __future__ import annotations

from pathlib import Path

from sphinx.application import Sphinx

from refsite.measurements import compat_export
from refsite.sphinxext import compat_notes
from refsite import __version__


def write_compat_data(app: Sphinx, exception: Exception | None) -> None:
    """``build-finished``: write ``compat/v1/`` into the output folder of a successful HTML build."""
    if exception is not None or app.builder.format != "html":
        return
    files = compat_export.export_matrix(compat_notes.matrix_of(app.env))
    compat_export.write(Path(app.outdir) / compat_export.FOLDER, files)


def setup(app: Sphinx) -> dict:
    """The hook that writes the compat data (set up by ``refsite.sphinxext.compat_notes``, which
    declares where the measurement files are)."""
    app.connect("build-finished", write_compat_data)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
