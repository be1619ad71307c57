"""Where the project's checkout is: the directory with ``conf.py``, ``Makefile`` and ``snippets/``.

The site's tooling works on one checkout (its snippets, pages and measurement files); its command
lines are run from it (``make`` does). Standard library only.
"""

from __future__ import annotations

import re
from pathlib import Path

#: What marks the checkout's root directory.
MARKERS = ("conf.py", "Makefile", "snippets")


def root(start: Path | None = None) -> Path:
    """The checkout that holds ``start`` (default: the working directory), found upwards."""
    here = Path(start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if all((folder / marker).exists() for marker in MARKERS):
            return folder
    raise RuntimeError(f"{here} is not inside the project's checkout (no folder above it holds "
                       f"{', '.join(MARKERS)}); run the command from the checkout's root")


def pinned_torch(start: Path | None = None) -> str:
    """The exact torch release the project pins (``2.15.0``): the Makefile's ``TORCH ?=``, the
    one place the pin is written."""
    makefile = root(start) / "Makefile"
    found = re.search(r"^TORCH \?= (\S+)$", makefile.read_text(encoding="utf-8"), re.M)
    if found is None:
        raise RuntimeError(f"{makefile} has no 'TORCH ?= <version>' line: the pin belongs there")
    return found.group(1)


def release_of(version: str) -> str:
    """``2.15.0+cu132`` -> ``2.15.0``: a torch build's release, its local tag cut (the one place
    that cut is written)."""
    return version.split("+")[0]
