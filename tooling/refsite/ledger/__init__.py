"""The API ledger: every public name of the namespaces the reference covers, each either *shown*
(the page and the snippets whose verified runs use it) or *not shown, with a reason*.

Where it lives
    ``docs/ledger/*.toml``, one file per namespace (or per section of torch's own reference for
    the top-level ``torch`` names). A file says which namespace it lists, how the public names
    are enumerated from the installed torch (``names_from``), and one entry per name::

        namespace = "torch.distributed"
        section = "distributed"
        title = { en = "torch.distributed (c10d)", zh = "torch.distributed（c10d）" }
        names_from = "dir"         # "__all__", "dir" or "reference" (see NAMES_FROM)

        [entries]
        all_reduce = { kind = "function", page = "distributed/collectives", snippets = ["distributed/all_reduce.py"] }
        AllreduceOptions = { kind = "class", reason = "options", via = "torch.distributed.all_reduce" }

    An entry's key is the name relative to the namespace; a key with a dot is a name in a
    submodule (``quasirandom.SobolEngine``) or, when the part before its last dot is capitalised,
    a member of a class (``FSDPModule.unshard``), added by hand where a page shows it.

Members of a class
    A file whose ``namespace`` is a class and whose ``names_from`` is ``"members"`` lists that
    class's members (``namespace = "torch.utils.data.distributed.DistributedSampler"``, key
    ``set_epoch``): every public one, less those it shares with ``inherited_from`` (a base whose
    members are the base's: ``torch.nn.Module`` for a module wrapper). A class with hundreds of
    members may be cut to the sections the reference covers: with ``method_forms_of =
    "torch"``, only the method forms of the functions that namespace's files list (``view``
    of ``torch.view``, and the in-place ``view_``) and the members named in ``also`` are in
    scope. The file says its cut in its first line; the enumeration, not a typed list, decides
    the rest, so ``--draft`` after a torch upgrade proposes new members.

Instance attributes
    ``instance_attributes = ["param_groups", "state"]`` in a "members" file names public
    attributes every instance sets (``self.param_groups = []`` in the class's own source) that
    ``dir()`` of the class misses. They are enumerated with the members (a name the source no
    longer assigns is reported as gone) and their entries have ``kind = "attribute"``.

Complete files
    ``complete = true`` says every name of the file is accounted for: shown, or with a reason
    other than ``not-yet``. Reading a complete file that holds a ``not-yet`` entry fails, naming
    the entries (a torch upgrade that adds names to a complete file fails the same way).

Superseded APIs
    ``superseded_by = "torch.distributed.fsdp.fully_shard"`` marks a file whose names torch's own
    reference asks users to migrate from (FSDP1's members). They stay shown where a page teaches
    them (a migration page); the site ranks them after current APIs that match a search as well
    (``no_sync`` finds ``DistributedDataParallel.no_sync`` before FSDP1's). The name must be a
    shown entry.

What an entry says
    ``kind`` is the Python-domain object type (:data:`KINDS`); a shown entry has ``page`` (a page
    path without suffix, the same in both languages) and ``snippets`` (paths under ``snippets/``);
    any other entry has a ``reason`` from :data:`REASONS` and that reason's fields.

This module reads and validates the files; it uses the standard library only, so the Sphinx
extension (which never imports torch) and the torch-side check (``refsite.lint.api_ledger``) read
the same entries.
"""

from __future__ import annotations

import dataclasses
import tomllib
from pathlib import Path

#: How a namespace's public names are enumerated from the installed torch.
NAMES_FROM = {
    "__all__": "the module's __all__",
    "dir": "the module's public attributes (no leading underscore, not a module) whose classes and "
           "functions are defined in torch (their __module__ starts with `defined_in`, default "
           "'torch'); plain values without a __module__ are not counted",
    "reference": "the list in torch's own reference (the section named by `source`); the entries' "
                 "keys are that list",
    "members": "the class's public members (no leading underscore; `__getitem__` where the class "
               "defines its own), less those of `inherited_from`; with `method_forms_of`, only the "
               "method forms of the functions that namespace lists and the members named in `also`",
}
#: Python-domain object types an entry may have.
KINDS = ("function", "class", "exception", "method", "property", "attribute", "data")
#: Why a name may be left without an example, and the fields each reason needs.
REASONS = {
    "alias": ("of",),                 # another entry's full name: the same API under another name
    "options": ("via",),              # an options/record type used only through this entry
    "deprecated": ("replacement",),   # the entry that replaces it (shown there)
    "hardware": ("needs", "snippets"),  # needs hardware not here; the variant exists and skips
    "out-of-scope": ("why",),         # one line, both languages
    "not-yet": (),                    # in scope, no example yet: the coverage pages say so
}
#: Reasons whose text fields hold both languages: ``{ en = "...", zh = "..." }``.
BILINGUAL = ("needs", "why")
#: The sections of the site, in sidebar order; a namespace belongs to one of them.
SECTIONS = ("tensors", "training", "parallel", "distributed", "sharded", "debugging")

DEFAULT_DIR = Path("docs") / "ledger"


class LedgerError(ValueError):
    """A ledger file that breaks the format; the message names the file, the entry and the fix."""


@dataclasses.dataclass(frozen=True)
class Entry:
    """One public name and how the reference accounts for it."""

    namespace: str
    key: str
    kind: str
    page: str = ""
    snippets: tuple[str, ...] = ()
    reason: str = ""
    fields: dict = dataclasses.field(default_factory=dict, compare=False)
    file: str = ""
    in_class: bool = False  # listed by a "members" file: the namespace is a class

    @property
    def name(self) -> str:
        """The full dotted name, ``torch.distributed.all_reduce``."""
        return f"{self.namespace}.{self.key}"

    @property
    def shown(self) -> bool:
        return not self.reason

    @property
    def member(self) -> bool:
        """A member of a class: any entry of a "members" file, or a dotted key whose owner is a
        class by its name (``FSDPModule.unshard``; ``quasirandom.SobolEngine`` names a module's)."""
        owner = self.key.rpartition(".")[0].rpartition(".")[2]
        return self.in_class or owner[:1].isupper()

    @property
    def owner(self) -> str:
        """The full name of the class a member belongs to ('' for a namespace's own name)."""
        return self.name.rpartition(".")[0] if self.member else ""


@dataclasses.dataclass(frozen=True)
class Namespace:
    """One ledger file: a namespace (or a section of torch's reference) and its entries."""

    file: str
    namespace: str
    section: str
    title: dict
    names_from: str
    source: str
    defined_in: str
    entries: tuple[Entry, ...]
    inherited_from: str = ""
    method_forms_of: str = ""
    also: tuple[str, ...] = ()
    superseded_by: str = ""  # the shown entry torch recommends instead (see the module's text)
    instance_attributes: tuple[str, ...] = ()  # set on each instance, missed by dir(class)

    @property
    def slug(self) -> str:
        return Path(self.file).stem


def _entry(ns: str, key: str, raw: object, where: str, in_class: bool = False) -> Entry:
    if not isinstance(raw, dict):
        raise LedgerError(f"{where}: entry {key!r} must be a table like "
                          "{ kind = \"function\", page = \"...\", snippets = [\"...\"] }")
    raw = dict(raw)
    kind = raw.pop("kind", None)
    if kind not in KINDS:
        raise LedgerError(f"{where}: entry {key!r}: kind {kind!r} is not one of {', '.join(KINDS)}")
    reason = raw.pop("reason", "")
    page, snippets = raw.pop("page", ""), tuple(raw.pop("snippets", ()))
    if not reason:
        if not page or not snippets:
            raise LedgerError(f"{where}: entry {key!r} has no reason, so it must be shown: give "
                              "page = \"<area>/<page>\" and snippets = [\"<area>/<file>.py\", ...]")
    elif reason not in REASONS:
        raise LedgerError(f"{where}: entry {key!r}: reason {reason!r} is not one of {', '.join(REASONS)}")
    else:
        for field in REASONS[reason]:
            if field == "snippets":
                continue
            value = raw.get(field)
            if field in BILINGUAL and not (isinstance(value, dict) and value.get("en") and value.get("zh")):
                raise LedgerError(f"{where}: entry {key!r} ({reason}) needs {field} = "
                                  "{ en = \"...\", zh = \"...\" }")
            if field not in BILINGUAL and not (isinstance(value, str) and value):
                raise LedgerError(f"{where}: entry {key!r} ({reason}) needs {field} = \"<full dotted name>\"")
        if reason == "hardware" and not snippets:
            raise LedgerError(f"{where}: entry {key!r} (hardware) needs snippets = [...]: the "
                              "variant that exists and skips for want of the hardware")
        unknown = set(raw) - set(REASONS[reason])
        if unknown:
            raise LedgerError(f"{where}: entry {key!r}: unknown field(s) {', '.join(sorted(unknown))} "
                              f"for reason {reason!r} (it takes {', '.join(REASONS[reason]) or 'none'})")
    if not reason and raw:
        raise LedgerError(f"{where}: entry {key!r}: unknown field(s) {', '.join(sorted(raw))} "
                          "for a shown entry (it takes kind, page, snippets)")
    return Entry(ns, key, kind, page, snippets, reason, raw, where, in_class)


def read_file(path: Path) -> Namespace:
    """One ledger file, validated."""
    where = path.as_posix()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise LedgerError(f"{where}: not valid TOML: {exc}") from None
    for field in ("namespace", "section", "title", "names_from", "entries"):
        if field not in data:
            raise LedgerError(f"{where}: missing `{field}` (see refsite.ledger's format)")
    if data["names_from"] not in NAMES_FROM:
        raise LedgerError(f"{where}: names_from {data['names_from']!r} is not one of {', '.join(NAMES_FROM)}")
    if data["names_from"] == "reference" and not data.get("source"):
        raise LedgerError(f"{where}: names_from = \"reference\" needs source = \"<the section of "
                          "torch's reference the entries list>\"")
    if data["section"] not in SECTIONS:
        raise LedgerError(f"{where}: section {data['section']!r} is not one of {', '.join(SECTIONS)}")
    members = data["names_from"] == "members"
    for field in ("inherited_from", "method_forms_of", "also", "instance_attributes"):
        if field in data and not members:
            raise LedgerError(f"{where}: `{field}` applies to names_from = \"members\" only")
    if "also" in data and "method_forms_of" not in data:
        raise LedgerError(f"{where}: `also` names members kept by a cut; give method_forms_of too")
    ns = data["namespace"]
    entries = tuple(_entry(ns, key, raw, where, members) for key, raw in data["entries"].items())
    _check_complete(data.get("complete", False), entries, where)
    return Namespace(where, ns, data["section"], data["title"], data["names_from"],
                     data.get("source", ""), data.get("defined_in", "torch"), entries,
                     data.get("inherited_from", ""), data.get("method_forms_of", ""),
                     tuple(data.get("also", ())), _superseded_by(data, where),
                     _instance_attributes(data, entries, where))


def _check_complete(complete: object, entries: tuple[Entry, ...], where: str) -> None:
    if not isinstance(complete, bool):
        raise LedgerError(f"{where}: complete must be true or false")
    missing = [e.key for e in entries if e.reason == "not-yet"]
    if complete and missing:
        raise LedgerError(f"{where}: complete = true, but {', '.join(missing)} "
                          f"{'is' if len(missing) == 1 else 'are'} not-yet; show "
                          f"{'it' if len(missing) == 1 else 'them'} (page and snippets) or give another reason")


def _instance_attributes(data: dict, entries: tuple[Entry, ...], where: str) -> tuple[str, ...]:
    names = data.get("instance_attributes", [])
    if not isinstance(names, list) or not all(isinstance(n, str) and n.isidentifier() for n in names):
        raise LedgerError(f"{where}: instance_attributes must be a list of attribute names, "
                          "e.g. instance_attributes = [\"param_groups\", \"state\"]")
    kinds = {e.key: e.kind for e in entries}
    for name in names:
        if kinds.get(name, "attribute") != "attribute":
            raise LedgerError(f"{where}: entry {name!r} is an instance attribute; write kind = \"attribute\"")
    return tuple(names)


def _superseded_by(data: dict, where: str) -> str:
    value = data.get("superseded_by", "")
    if not isinstance(value, str) or (value and not value.startswith("torch.")):
        raise LedgerError(f"{where}: superseded_by must be the full name of the entry torch recommends "
                          "instead, e.g. superseded_by = \"torch.distributed.fsdp.fully_shard\"")
    return value


def read(folder: Path) -> list[Namespace]:
    """Every ledger file of ``folder``, sorted by file name; a name listed twice is an error."""
    files = sorted(folder.glob("*.toml"))
    if not files:
        raise LedgerError(f"{folder}: no ledger files (*.toml)")
    namespaces = [read_file(f) for f in files]
    seen: dict[str, str] = {}
    for ns in namespaces:
        for entry in ns.entries:
            if entry.name in seen:
                raise LedgerError(f"{ns.file}: {entry.name} is already listed in {seen[entry.name]}; "
                                  "list each name once")
            seen[entry.name] = ns.file
    return namespaces


def entries(namespaces: list[Namespace]) -> list[Entry]:
    """Every entry of every namespace."""
    return [e for ns in namespaces for e in ns.entries]
