"""One built site per state of its inputs: ``docs/build.py`` builds into
``_build/site-cache/<digest>`` and copies that to the folder asked for, so ``make test`` (whose
browser tests need the site) and ``make html`` after it build it once between them.

The digest covers every file the site is built from (:data:`SITE_INPUTS`, but the ``apidocs``
the build writes itself), the interpreter and the installed distributions. Standard library only.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import sys
from pathlib import Path

#: What the built site is made of, relative to the checkout.
SITE_INPUTS = ("conf.py", "docs", "snippets", "src", "tooling")
#: What decides how a page is read and rendered: Sphinx notices a changed page or a changed
#: record it depends on, not a changed extension, so a change here reads every page again.
CODE_INPUTS = ("conf.py", "src", "tooling")
#: Where the builds are kept, relative to the checkout; only the newest is kept.
CACHE = Path("_build") / "site-cache"
#: The file a complete, successful build leaves in its folder.
DONE = "built"


def site_digest(root: Path, inputs: tuple[str, ...] = SITE_INPUTS) -> str:
    """The digest of everything the site at ``root`` is built from (or of ``inputs`` only)."""
    sha = hashlib.sha256()
    for name in inputs:
        top = root / name
        for path in sorted([top] if top.is_file() else top.rglob("*")):
            if path.is_file() and "apidocs" not in path.parts and "__pycache__" not in path.parts:
                sha.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    sha.update(sys.version.encode() + b"\0")
    dists = sorted({f"{d.metadata['Name']}=={d.version}" for d in importlib.metadata.distributions()})
    sha.update("\n".join(dists).encode())
    return sha.hexdigest()


def build_dir(root: Path) -> Path:
    """The folder the site's current inputs build into (it may not exist yet)."""
    return root / CACHE / site_digest(root)[:16]


def doctrees_dir(root: Path) -> Path:
    """Where Sphinx keeps what it read, per state of the code that renders the pages: a build
    with the same code reads only the pages (and records) that changed."""
    return root / "_build" / "doctrees" / site_digest(root, CODE_INPUTS)[:16]
