"""Keeping the API ledger (``docs/ledger/``, :mod:`refsite.ledger`) true to the installed torch,
the snippets and the pages.

A finding names the entry and the fix. What is checked:

- every public name torch has in a namespace in scope (enumerated as the ledger file says) has an
  entry, and every listed name still exists (a torch upgrade lists each new or removed API);
- an entry's ``kind`` is what the object is;
- a shown entry's snippets exist and each uses the name (read from its code by
  :mod:`refsite.ledger.uses`; a name imported under another public path counts when it is the same
  class or function), and its page embeds each of them, in every language;
- every torch name a page's signature block declares has an entry;
- a reason entry's name is used by no snippet (it would be shown then), and the entries a reason
  points at exist (a replacement is shown). A member's owner is not inferred (``x.clone()`` may
  be a tensor's or a store's), so a use is no evidence against a member's reason: ``--update``
  proposes the members that embedded snippets seem to show, for review.

``python -m refsite.lint.api_ledger --draft`` prints an entry for each name the ledger lacks (shown
where snippets already use it, otherwise ``reason = "not-yet"``), ready to paste; ``--update``
rewrites each entry with a reason that an embedded snippet now uses as shown.
"""

from __future__ import annotations

import argparse
import inspect
import os
import sys
import warnings
from pathlib import Path

from refsite import ledger, project
from refsite.languages import LANGUAGES
from refsite.ledger import Entry, Namespace
from refsite.lint.api_names import (InstanceAttribute, identity, import_name, instance_attribute, kind_of,
                                    public_names, snippet_uses)
from refsite.lint.pages import page_embeds, signature_pages
from refsite.snippets import SpecError, read_spec, snippet_paths


def _gpus_only(path: Path) -> bool:
    """Whether every variant of the snippet at ``path`` needs GPUs (no verified run here)."""
    try:
        return not any(v.gpus == 0 for v in read_spec(path).variants)
    except SpecError:  # its own tests name the header problem
        return False


def check(root: Path, namespaces: list[Namespace]) -> list[str]:
    """Every finding about the ledger, each naming the entry and the fix."""
    with warnings.catch_warnings():  # looking at a deprecated name warns (torch.distributed.reduce_op)
        warnings.simplefilter("ignore")
        return _check(root, namespaces)


def _check(root: Path, namespaces: list[Namespace]) -> list[str]:
    problems: list[str] = []
    all_snippets = snippet_paths(root / "snippets")
    embeds = page_embeds(root / "docs")
    by_name = {e.name: e for e in ledger.entries(namespaces)}
    for ns in namespaces:
        listed = {e.key for e in ns.entries if e.in_class or not e.member}
        try:
            public = public_names(ns, namespaces)
        except (ImportError, AttributeError) as exc:
            problems.append(f"{ns.file}: cannot enumerate {ns.namespace} in the installed torch: {exc}")
            continue
        for name in sorted(set(public) - listed):
            problems.append(f"{ns.file}: {ns.namespace}.{name} is public in the installed torch "
                            f"({ledger.NAMES_FROM[ns.names_from].split(' (')[0]}) but has no entry; add "
                            "one (python -m refsite.lint.api_ledger --draft prints it)")
        for name in sorted(set(ns.also) - set(public)):
            problems.append(f"{ns.file}: `also` names {name}, which {ns.namespace} does not have as "
                            "a public member in the installed torch; remove it")
        for name in sorted(listed - set(public)):
            problems.append(f"{ns.file}: {ns.namespace}.{name} is listed but the installed torch no "
                            "longer has it as a public name; remove the entry (and what shows it)")
    for ns in namespaces:
        target = by_name.get(ns.superseded_by)
        if ns.superseded_by and not (target and target.shown):
            problems.append(f"{ns.file}: superseded_by names {ns.superseded_by}, which is not a shown "
                            "entry; name the shown entry torch recommends instead")
    declared = signature_pages(root / "docs")
    for entry in by_name.values():
        problems += _check_entry(root, entry, by_name, all_snippets, embeds)
        problems += _check_anchor(entry, declared)
    problems += _check_declared(declared, by_name)
    problems += _check_one_home(by_name)
    return problems


def _check_one_home(by_name: dict[str, Entry]) -> list[str]:
    """A class or function that torch exports under two names (``torch.utils.data.DistributedSampler``
    and ``torch.utils.data.distributed.DistributedSampler``) has one home: both shown entries name
    the same page, so the index and search send a reader to one section, not two."""
    homes: dict[int, list[Entry]] = {}
    for entry in by_name.values():
        if entry.shown and not entry.member and (key := identity(entry.name)) is not None:
            homes.setdefault(key, []).append(entry)
    return [f"{later.file}: {later.name} is the same object as {first.name} ({first.file}), whose page is "
            f"{first.page}, but its page is {later.page}; give both entries the page of its own section"
            for first, *rest in homes.values() for later in rest if later.page != first.page]


def _check_declared(declared: dict[str, dict[str, set[str]]], by_name: dict[str, Entry]) -> list[str]:
    """A torch name that a page's signature block declares has an entry: a reader who looks it up
    must find it (shown) or its reason on the coverage page."""
    return [f"docs/{lang}/{page}.md declares the signature of {name}, which has no ledger entry; add "
            "one to the file of its namespace or class (shown there, or with a reason)"
            for lang in LANGUAGES for name, pages in sorted(declared[lang].items())
            if name.split(".")[0] == "torch" and name not in by_name for page in sorted(pages)]


def _check_anchor(entry: Entry, declared: dict[str, dict[str, set[str]]]) -> list[str]:
    """A shown entry whose name a signature block declares lands on that block: its page must
    be one with such a block, in every language (else the index sends readers to a snippet
    that only happens to call it)."""
    found = []
    for lang in LANGUAGES if entry.shown else ():
        pages = declared[lang].get(entry.name, set())
        if pages and entry.page not in pages:
            found.append(f"{entry.file}: {entry.name}: docs/{lang}/{', '.join(sorted(pages))} "
                         f"declare(s) its signature, but the entry's page is {entry.page}; give "
                         "the page with the signature (and a snippet it embeds that uses the name)")
    return found


def _check_entry(root: Path, entry: Entry, by_name: dict[str, Entry], all_snippets: list[Path],
                 embeds: dict[str, dict[str, list[str]]]) -> list[str]:
    where = f"{entry.file}: {entry.name}"
    try:
        obj = import_name(entry.name)
    except (ImportError, AttributeError) as exc:
        obj = _instance_attribute(entry)
        if obj is None:
            return [f"{where}: not found in the installed torch ({exc}); fix the name or remove the entry"]
    found: list[str] = []
    real = kind_of(obj, entry.member)
    if real != entry.kind:
        found.append(f"{where}: kind is {entry.kind!r} but the object is a {real}; write kind = \"{real}\"")
    for snippet in entry.snippets:
        path = root / "snippets" / snippet
        if not path.exists():
            found.append(f"{where}: snippet {snippet} does not exist under snippets/")
        elif entry.shown and not snippet_uses(path, entry):
            found.append(f"{where}: snippets/{snippet} does not use {entry.name}; name a snippet that "
                         "does, or make the snippet use it")
        elif entry.reason == "hardware" and not _gpus_only(path):
            found.append(f"{where}: reason hardware, but snippets/{snippet} has no variant that needs GPUs")
    if entry.shown and entry.snippets and all(_gpus_only(root / "snippets" / s) for s in entry.snippets):
        found.append(f"{where}: every snippet it names needs GPUs, so no verified run here shows it; give "
                     "it reason = \"hardware\" with needs = { en = \"...\", zh = \"...\" } (the "
                     "snippets stay, skipped with that reason), or name a snippet that runs on CPU")
    if entry.shown or entry.reason == "hardware":
        for lang in LANGUAGES:
            embedded = embeds[lang].get(entry.page) if entry.page else None
            if entry.page and embedded is None:
                found.append(f"{where}: page docs/{lang}/{entry.page}.md does not exist")
                continue
            for snippet in entry.snippets:
                if embedded is not None and snippet not in embedded:
                    found.append(f"{where}: docs/{lang}/{entry.page}.md does not embed {snippet} "
                                 f"(```{{snippet}} {snippet}```); embed it or name the page that does")
    if not entry.shown and entry.reason != "hardware" and not entry.member and not _same_object_alias(entry):
        users = [p.relative_to(root).as_posix() for p in all_snippets if snippet_uses(p, entry)]
        if users:
            found.append(f"{where}: reason {entry.reason!r}, but {', '.join(users)} use(s) it; make "
                         f"it shown (page and snippets) instead")
    target = entry.fields.get("of") or entry.fields.get("via") or entry.fields.get("replacement")
    if target and target not in by_name:
        found.append(f"{where}: points at {target}, which has no entry in the ledger")
    elif entry.reason == "deprecated" and not by_name[target].shown:
        found.append(f"{where}: its replacement {target} is not shown; show it first")
    return found


def _same_object_alias(entry: Entry) -> bool:
    """An alias that is its target under another path (``torch.nn.modules.container.Sequential``
    is ``torch.nn.Sequential``): every snippet that uses the target uses it too, and the target's
    entry shows it, so such a use is no reason to show the alias."""
    if entry.reason != "alias":
        return False
    same = identity(entry.name)
    return same is not None and same == identity(entry.fields["of"])


def _instance_attribute(entry: Entry) -> InstanceAttribute | None:
    """The attribute each instance of the entry's class sets (``instance_attributes``), if any."""
    if not entry.in_class or entry.kind != "attribute":
        return None
    try:
        cls = import_name(entry.namespace)
    except (ImportError, AttributeError):
        return None
    found = inspect.isclass(cls) and instance_attribute(cls, entry.key)
    return InstanceAttribute(entry.namespace, entry.key) if found else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m refsite.lint.api_ledger", description=__doc__.split("\n")[0])
    parser.add_argument("--draft", action="store_true", help="print entries for the names the ledger lacks")
    parser.add_argument("--update", action="store_true",
                        help="rewrite each reason entry that an embedded snippet now uses as shown")
    args = parser.parse_args(argv)
    from refsite.lint.api_ledger_draft import draft, update  # the writing side
    root = project.root()
    os.chdir(root)  # findings name files relative to the checkout
    namespaces = ledger.read(ledger.DEFAULT_DIR)
    root = Path(".")
    if args.update:
        changed = update(root, namespaces)
        print("\n".join(f"now shown: {name}" for name in changed) or "no not-yet entry is used by a snippet")
        namespaces = ledger.read(ledger.DEFAULT_DIR)
    if args.draft:
        for file, lines in draft(root, namespaces).items():
            print(f"# {file}\n" + "\n".join(lines) + "\n")
        return 0
    problems = check(root, namespaces)
    print("\n".join(problems) or "the ledger is true to the installed torch, the snippets and the pages")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
