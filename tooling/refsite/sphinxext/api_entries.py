"""Every shown entry of the API ledger (:mod:`refsite.ledger`) as a Python-domain object on the
page that shows it, and the generated pages that list the ledger.

Objects
    For each shown entry of a page, the object (``torch.distributed.all_reduce``, kind from the
    ledger) is anchored at the page's ``{signature}`` block that names it (the signature the page
    checks against torch), or else at the first embedding of the entry's snippet. It gets an index
    entry (so ``genindex`` lists it), goes into ``objects.inv`` and the search index, and
    ``{py:func}`torch.where``` links to it.

Directives
    ``{api-coverage}``: per namespace of the ledger, the counts and every name with its link or
    its reason. ``{api-index}``: every name A to Z. Nothing in them is typed: both are made from
    the ledger when the site is built.

Configuration (``conf.py``)
    ``api_entries_ledger``: the ledger's folder, relative to the configuration directory
    (default ``docs/ledger``).
"""

from __future__ import annotations

import typing
import weakref
from pathlib import Path

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.domains.python import PythonDomain
from sphinx.locale import _
from sphinx.util import logging
from sphinx.transforms import SphinxTransform
from sphinx.util.docutils import SphinxDirective

from refsite import __version__, ledger
from refsite.ledger import Entry, Namespace
from refsite.signature_pages import block_names
from refsite.sphinxext.api_strings import Strings
from refsite.sphinxext.page_language import page_language
from refsite.measurements import compat_results
from refsite.sphinxext import build_inputs, compat_notes
from refsite.sphinxext.page_language import page_words
from refsite.sphinxext.verified_snippets import SNIPPET_ATTRIBUTE

logger = logging.getLogger(__name__)

#: Class of the generated lists' sections: long dotted names may wrap (on a phone).
LIST_CLASS = "vs-api-list"


_LEDGERS: weakref.WeakKeyDictionary[BuildEnvironment, list[Namespace]] = weakref.WeakKeyDictionary()


def _namespaces(env: BuildEnvironment) -> list[Namespace]:
    """The ledger, read once per build; the current page depends on its files (a ledger change
    may add, move or relist an object on any page)."""
    folder = Path(env.config.api_entries_ledger)  # made absolute at config-inited
    if env not in _LEDGERS:
        _LEDGERS[env] = ledger.read(folder)
    for ns in _LEDGERS[env]:
        env.note_dependency(str(folder / Path(ns.file).name))
    return _LEDGERS[env]


def _forget_ledger(app: Sphinx, env: BuildEnvironment, *_args: object) -> None:
    _LEDGERS.pop(env, None)


def _resolve_ledger(app: Sphinx, config: typing.Any) -> None:
    config.api_entries_ledger = str(Path(app.confdir, config.api_entries_ledger))


def _index_text(entry: Entry) -> str:
    owner, _dot, short = entry.name.rpartition(".")
    if entry.kind == "method":
        return _("%s() (%s method)") % (short, owner)
    if entry.kind == "attribute":
        return _("%s (%s attribute)") % (short, owner)
    if entry.kind == "property":
        return _("%s (%s property)") % (short, owner)
    if entry.kind == "function":
        return _("%s() (in module %s)") % (short, owner)
    if entry.kind in ("class", "exception"):
        return _("%s (class in %s)") % (short, owner)
    return _("%s (in module %s)") % (short, owner)


def node_id(name: str) -> str:
    """The anchor of an entry on its page."""
    return "api-" + name.replace(".", "-").replace("_", "-").lower()


class PlaceObjects(SphinxTransform):
    """Anchor each shown entry of the page at its signature block or its snippet (a transform:
    it runs before the domains collect the page's index entries)."""

    default_priority = 800

    def apply(self, **kwargs: typing.Any) -> None:
        place_objects(self.env, self.document)


def place_objects(env: BuildEnvironment, doctree: nodes.document) -> None:
    """Anchor each shown entry of this page at its signature block or its snippet."""
    docname = env.docname
    here = [e for e in ledger.entries(_namespaces(env)) if e.shown and e.page == docname]
    if not here:
        return
    signatures = [(n, block_names(n.astext())) for n in doctree.findall(nodes.literal_block)
                  if "vs-signature" in n["classes"]]
    snippets = {}
    for block in doctree.findall(nodes.container):
        if block.get(SNIPPET_ATTRIBUTE):
            snippets.setdefault(block[SNIPPET_ATTRIBUTE], block)
    domain = env.get_domain("py")
    matrix = compat_notes.matrix_of(env)
    since_at: dict[int, tuple[nodes.Node, list[tuple[str, str]]]] = {}
    for entry in here:
        anchor = next((n for n, names in signatures if entry.name in names), None)
        if anchor is None:
            anchor = next((snippets[s] for s in entry.snippets if s in snippets), None)
        if anchor is None:
            logger.warning(f"{entry.name}: the ledger ({entry.file}) says page {docname} shows it, but "
                           f"the page embeds none of {', '.join(entry.snippets)}; fix the ledger or the page",
                           location=docname, type="api_entries", subtype="anchor")
            continue
        ident = node_id(entry.name)
        index = addnodes.index(entries=[("single", _index_text(entry), ident, "", None)])
        target = nodes.target("", "", ids=[ident])
        parent = anchor.parent
        position = parent.index(anchor)
        parent.insert(position, target)
        parent.insert(position, index)
        domain.note_object(entry.name, entry.kind, ident, location=anchor)
        if (since := matrix.works_since(list(entry.snippets))) is not None:
            since_at.setdefault(id(anchor), (anchor, []))[1].append(
                (compat_results.short_release(since.release), entry.name))
    if since_at:  # read again when a measurement file changes, or a new release's is added
        build_inputs.note_tree(env, "measurements")
    for anchor, found in since_at.values():
        anchor.parent.insert(anchor.parent.index(anchor) + 1, _since_line(found, page_words(env)))


def _since_line(found: list[tuple[str, str]], words: typing.Mapping[str, str]) -> nodes.paragraph:
    """"Works since torch 2.6" under a signature block (per release, newest first, the names
    when its entries differ): the rule is the compat matrix's ``works_since``."""
    para = nodes.paragraph(classes=["vs-works-since"])
    releases = sorted({release for release, _ in found}, key=compat_results.release_key, reverse=True)
    for number, release in enumerate(releases):
        para += nodes.Text(("; " if number else "") + words["api.works_since"].format(release=release))
        if len(releases) > 1:
            para += nodes.Text(": ")
            for count, name in enumerate(n for r, n in found if r == release):
                para += nodes.Text(", " if count else "")
                para += nodes.literal(name, _short(name))
    return para


#: Sphinx's search priority of an object that torch asks users to migrate from ("unimportant":
#: it ranks after current APIs that match as well); 1 is the Python domain's default.
SUPERSEDED_PRIORITY = 2


class LedgerPythonDomain(PythonDomain):
    """The Python domain, with the entries of a ``superseded_by`` ledger file searched after the
    current APIs (``no_sync`` finds DDP's before FSDP1's, which Sphinx ordered by name)."""

    def get_objects(self) -> typing.Iterator[tuple[str, str, str, str, str, int]]:
        superseded = {e.name for ns in _namespaces(self.env) if ns.superseded_by for e in ns.entries}
        for name, dispname, kind, docname, anchor, priority in super().get_objects():
            if priority == 1 and name in superseded:
                priority = SUPERSEDED_PRIORITY
            yield name, dispname, kind, docname, anchor, priority


def _xref(name: str, shown: set[str]) -> nodes.Node:
    code = nodes.literal(name, name)
    if name not in shown:
        return code
    return addnodes.pending_xref("", code, refdomain="py", reftype="obj", reftarget=name,
                                 refexplicit=True, refwarn=True)


class _LedgerDirective(SphinxDirective):
    has_content = False

    def _context(self) -> tuple[list[Namespace], set[str], typing.Any]:
        # every ledger file, a new one too; "works since" reads the records and measurements
        build_inputs.note_tree(self.env, "ledger", "snippets", "measurements")
        namespaces = _namespaces(self.env)
        shown = {e.name for e in ledger.entries(namespaces) if e.shown}
        return namespaces, shown, Strings(page_language(self))

    def _list(self, entries: typing.Iterable[Entry], shown: set[str], strings: typing.Any) -> nodes.bullet_list:
        """One item per entry: its name (linked when shown), then where it is shown or why not."""
        items = nodes.bullet_list()
        for entry in entries:
            para = self._where(entry, shown, strings)
            para.insert(0, nodes.Text(" — "))
            para.insert(0, _xref(entry.name, shown))
            items += nodes.list_item("", para)
        return items

    def _where(self, entry: Entry, shown: set[str], strings: typing.Any) -> nodes.paragraph:
        para = nodes.paragraph()
        if entry.shown:
            ref = addnodes.pending_xref("", nodes.inline(entry.page, entry.page), refdomain="std",
                                        reftype="doc", reftarget="/" + entry.page, refexplicit=False)
            para += ref
            if (since := compat_notes.matrix_of(self.env).works_since(list(entry.snippets))) is not None:
                text = page_words(self)["api.since_short"].format(release=compat_results.short_release(since.release))
                para += nodes.inline(text, f" · {text}", classes=["vs-works-since"])
            return para
        text, target = strings.reason(entry)
        para += nodes.Text(text)
        if target:
            para += _xref(target, shown)
        return para


class CoverageDirective(_LedgerDirective):
    """``{api-coverage}``: counts and every name, per namespace of the ledger."""

    def run(self) -> list[nodes.Node]:
        namespaces, shown, strings = self._context()
        out: list[nodes.Node] = [nodes.paragraph("", strings.totals(ledger.entries(namespaces)))]
        for ns in namespaces:
            section = nodes.section(ids=[f"coverage-{ns.slug.replace('.', '-')}"], classes=[LIST_CLASS])
            section += nodes.title("", ns.title[strings.lang])
            section += nodes.paragraph("", strings.counts(ns))
            section += nodes.paragraph("", strings.enumerated(ns))
            section += self._list(ns.entries, shown, strings)
            out.append(section)
        return out


def _short(name: str) -> str:
    return name.rpartition(".")[2]


class IndexDirective(_LedgerDirective):
    """``{api-index}``: every name of the ledger, A to Z by its last part; a class's members are
    listed under it (under its bare name where the class itself is not an entry)."""

    def run(self) -> list[nodes.Node]:
        namespaces, shown, strings = self._context()
        every = ledger.entries(namespaces)
        members: dict[str, list[Entry]] = {}
        for entry in every:
            if entry.member:
                members.setdefault(entry.owner, []).append(entry)
        # each head: its name, and its entry (None for a class that is not itself an entry)
        heads: dict[str, Entry | None] = {e.name: e for e in every if not e.member}
        heads.update({owner: None for owner in members if owner not in heads})
        order = sorted(heads, key=lambda name: (_short(name).lower(), name))
        out: list[nodes.Node] = []
        for letter in sorted({_short(name)[0].upper() for name in order}):
            section = nodes.section(ids=[f"a-z-{letter.lower()}"], classes=[LIST_CLASS])
            section += nodes.title("", letter)
            items = nodes.bullet_list()
            for name in (n for n in order if _short(n)[0].upper() == letter):
                if heads[name] is None:
                    item = nodes.list_item("", nodes.paragraph("", "", nodes.literal(name, name)))
                else:
                    item = self._list([heads[name]], shown, strings)[0]
                if name in members:
                    item += self._list(sorted(members[name], key=lambda e: e.name.lower()), shown, strings)
                items += item
            section += items
            out.append(section)
        return out


def setup(app: Sphinx) -> dict[str, typing.Any]:
    """Register the configuration value, the object placement and the two directives."""
    app.add_config_value("api_entries_ledger", "docs/ledger", "env", types=frozenset({str}))
    app.connect("config-inited", _resolve_ledger)
    app.connect("env-before-read-docs", _forget_ledger)
    app.add_domain(LedgerPythonDomain, override=True)
    app.add_transform(PlaceObjects)
    app.add_directive("api-coverage", CoverageDirective)
    app.add_directive("api-index", IndexDirective)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
