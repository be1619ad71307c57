"""What each page was made from, noted while Sphinx reads it, so that an incremental build (``make
html`` reuses Sphinx's environment) reads or writes again exactly the pages a change affects.

Files
    A page that shows a snippet notes the snippet's files (``env.note_dependency``): Sphinx reads
    it again when one of them changes.

Trees
    What a page reads as a whole tree depends on files that may not exist when it is read: a new
    snippet, the first GPU record of a variant, a new release's measurement file, a new ledger
    file. Its directive notes the tree (:func:`note_tree`): :data:`TREES` names them. The
    environment keeps, per tree, the digest (every file's path and bytes) its pages last saw;
    at the start of a build (``env-get-outdated``), a tree whose digest changed sends every page
    that noted it back to be read, and only those.

Embeddings
    Which snippets a page embeds is a fact of that page, noted by its ``{snippet}`` directives
    (:func:`note_embed`) while it is read, dropped with the page and merged after parallel
    reads. A page that links examples to the pages showing them (the release chooser) notes
    that it does (:func:`note_links`) and resolves its links when it is written
    (:func:`embedding_pages`, in a post-transform): after a build whose reading changed those
    facts (``env-updated``), it is written again without being read again.
"""

from __future__ import annotations

import hashlib
import typing
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment

from refsite import __version__

#: The trees a page may note: name -> (configuration value naming its folder, files, whether the
#: folder is the configured one's parent). ``measurements`` is the compat folder's parent
#: (``docs/measurements``: compat results and GPU captures).
TREES: dict[str, tuple[str, str, bool]] = {
    "snippets": ("verified_snippets_root", "*", False),
    "measurements": ("verified_snippets_compat_dir", "*", True),
    "ledger": ("api_entries_ledger", "*.toml", False),
}

_TREE_PAGES = "refsite_tree_pages"      # env attribute: tree -> the pages that noted it
_TREE_DIGESTS = "refsite_tree_digests"  # env attribute: tree -> the digest its pages last saw
_EMBEDS = "refsite_embeds"              # env attribute: page -> the snippets it embeds
_LINKERS = "refsite_linkers"            # env attribute: pages that link snippets to their pages
_EMBEDS_DIGEST = "refsite_embeds_digest"


def _attr(env: BuildEnvironment, name: str, factory: type) -> typing.Any:
    value = getattr(env, name, None)
    if value is None:
        value = factory()
        setattr(env, name, value)
    return value


def note_tree(env: BuildEnvironment, *trees: str) -> None:
    """Read the page being read (``env.docname``) again whenever a file of one of ``trees`` (:data:`TREES`) is
    added, changed or removed."""
    unknown = set(trees) - set(TREES)
    if unknown:
        raise ValueError(f"unknown tree(s) {sorted(unknown)}; known: {sorted(TREES)}")
    pages = _attr(env, _TREE_PAGES, dict)
    for tree in trees:
        pages.setdefault(tree, set()).add(env.docname)


def note_embed(env: BuildEnvironment, snippet: str) -> None:
    """The page being read embeds ``snippet`` (a path under the snippet root)."""
    _attr(env, _EMBEDS, dict).setdefault(env.docname, set()).add(snippet)


def note_links(env: BuildEnvironment) -> None:
    """The page being read links snippets to the pages that embed them: write it again when
    which page embeds which snippet changed."""
    _attr(env, _LINKERS, set).add(env.docname)


def embedding_pages(env: BuildEnvironment) -> dict[str, str]:
    """Snippet path -> the first page (by name) of this tree that embeds it."""
    where: dict[str, str] = {}
    for docname, embedded in sorted(getattr(env, _EMBEDS, {}).items()):
        for snippet in sorted(embedded):
            where.setdefault(snippet, docname)
    return where


def tree_folder(app: Sphinx, tree: str) -> Path | None:
    """The folder of ``tree`` in this build (``None`` where its configuration value is unset)."""
    config_name, _pattern, parent = TREES[tree]
    value = getattr(app.config, config_name, None)
    if not value:
        return None
    folder = Path(app.confdir, value)
    return folder.parent if parent else folder


def digest(folder: Path | None, pattern: str) -> str:
    """The digest of every file under ``folder`` that matches ``pattern``: its path and bytes."""
    sha = hashlib.sha256()
    for path in sorted(folder.rglob(pattern)) if folder is not None else ():
        if path.is_file() and "__pycache__" not in path.parts:
            sha.update(path.as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return sha.hexdigest()


def _outdated(app: Sphinx, env: BuildEnvironment, added, changed, removed) -> list[str]:
    # Every tree's digest is kept, noted or not: the pages this build reads see the trees as now.
    digests = _attr(env, _TREE_DIGESTS, dict)
    noted = getattr(env, _TREE_PAGES, {})
    again: set[str] = set()
    for tree, (_config, pattern, _parent) in TREES.items():
        now = digest(tree_folder(app, tree), pattern)
        if digests.get(tree) != now:
            digests[tree] = now
            again |= noted.get(tree, set())
    return sorted(doc for doc in again if doc in env.all_docs and doc not in removed)


def _embeds_digest(env: BuildEnvironment) -> str:
    return hashlib.sha256(repr(sorted(embedding_pages(env).items())).encode()).hexdigest()


def _updated(app: Sphinx, env: BuildEnvironment) -> list[str]:
    now = _embeds_digest(env)
    before = getattr(env, _EMBEDS_DIGEST, None)
    setattr(env, _EMBEDS_DIGEST, now)
    return [] if before in (now, None) else sorted(getattr(env, _LINKERS, set()) & set(env.all_docs))


def _purge(app: Sphinx, env: BuildEnvironment, docname: str) -> None:
    for pages in getattr(env, _TREE_PAGES, {}).values():
        pages.discard(docname)
    getattr(env, _EMBEDS, {}).pop(docname, None)
    getattr(env, _LINKERS, set()).discard(docname)


def _merge(app: Sphinx, env: BuildEnvironment, docnames, other: BuildEnvironment) -> None:
    docs = set(docnames)
    for tree, pages in getattr(other, _TREE_PAGES, {}).items():
        _attr(env, _TREE_PAGES, dict).setdefault(tree, set()).update(pages & docs)
    for docname, embedded in getattr(other, _EMBEDS, {}).items():
        if docname in docs:
            _attr(env, _EMBEDS, dict)[docname] = set(embedded)
    _attr(env, _LINKERS, set).update(getattr(other, _LINKERS, set()) & docs)


def setup(app: Sphinx) -> dict:
    app.connect("env-get-outdated", _outdated)
    app.connect("env-updated", _updated)
    app.connect("env-purge-doc", _purge)
    app.connect("env-merge-info", _merge)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True, "env_version": 1}
