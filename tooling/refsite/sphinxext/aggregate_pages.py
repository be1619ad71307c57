"""Pages made from the whole snippet tree are read again whenever the tree or the measurements
change, in every build that reuses Sphinx's environment.

Sphinx reads a page again when a file it noted (``env.note_dependency``) changed. A page that
sums up every snippet or ledger file (the compat table, the release chooser, the GPU variants, the
coverage page, the A-Z index) depends on files
that may not exist when it is read: a new snippet, the first GPU record of a variant, the
measurement file of a new release. So such a directive calls :func:`note` instead, and at the
start of every build (``env-get-outdated``) a digest of the snippet tree, of
``docs/measurements`` and of the pages (every file's path and bytes) is compared with the one the environment
keeps: when it changed, every noted page is read again.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util.docutils import SphinxDirective

from refsite import __version__

_PAGES = "refsite_aggregate_pages"      # env attribute: the documents noted
_DIGEST = "refsite_aggregate_digest"    # env attribute: the digest their last read saw


def note(directive: SphinxDirective) -> None:
    """Read the directive's page again whenever the snippet tree or the measurements change."""
    pages = getattr(directive.env, _PAGES, None)
    if pages is None:
        pages = set()
        setattr(directive.env, _PAGES, pages)
    pages.add(directive.env.docname)


def data_digest(*globs: tuple[Path, str]) -> str:
    """The digest of every file that matches one of ``(folder, pattern)``: its path and bytes."""
    sha = hashlib.sha256()
    for folder, pattern in globs:
        for path in sorted(folder.rglob(pattern)):
            if path.is_file() and "__pycache__" not in path.parts:
                sha.update(path.as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return sha.hexdigest()


def _inputs(app: Sphinx) -> tuple[tuple[Path, str], ...]:
    """The snippet tree, ``docs/measurements`` (the compat folder's parent), the pages (the
    release chooser links each example to the page that embeds it) and the API ledger."""
    ledger = getattr(app.config, "api_entries_ledger", None)  # the coverage page and the A-Z index
    return ((Path(app.confdir, app.config.verified_snippets_root), "*"),
            (Path(app.confdir, app.config.verified_snippets_compat_dir).parent, "*"),
            (Path(app.srcdir), "*.md"),
            *(((Path(app.confdir, ledger), "*.toml"),) if ledger else ()))


def _outdated(app: Sphinx, env: BuildEnvironment, added, changed, removed) -> list[str]:
    digest = data_digest(*_inputs(app))
    if getattr(env, _DIGEST, None) == digest:
        return []
    setattr(env, _DIGEST, digest)
    return sorted(doc for doc in getattr(env, _PAGES, ()) if doc in env.all_docs and doc not in removed)


def _purge(app: Sphinx, env: BuildEnvironment, docname: str) -> None:
    getattr(env, _PAGES, set()).discard(docname)


def _merge(app: Sphinx, env: BuildEnvironment, docnames, other: BuildEnvironment) -> None:
    pages = getattr(other, _PAGES, set()) & set(docnames)
    if pages:
        if getattr(env, _PAGES, None) is None:
            setattr(env, _PAGES, set())
        getattr(env, _PAGES).update(pages)


def setup(app: Sphinx) -> dict:
    app.connect("env-get-outdated", _outdated)
    app.connect("env-purge-doc", _purge)
    app.connect("env-merge-info", _merge)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True, "env_version": 1}
