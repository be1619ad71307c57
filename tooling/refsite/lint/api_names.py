"""What the installed torch and the snippets hold for the API ledger (:mod:`refsite.ledger`): the
public names of a namespace, the kind of an object, and whether a snippet uses a name (by name, or
the same class or function under another public path). Shared by the ledger's check
(:mod:`refsite.lint.api_ledger`) and its writer (:mod:`refsite.lint.api_ledger_draft`).
"""

from __future__ import annotations

import functools
import inspect
import types
import warnings
from pathlib import Path

from refsite.ledger import Entry, Namespace, uses
from refsite.lint.signature_sources import resolve


def import_name(name: str) -> object:
    """The object a full dotted name stands for, quietly (looking at a deprecated name warns)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return resolve(name)[0]


def public_names(ns: Namespace) -> dict[str, object]:
    """The public names of ``ns`` in the installed torch, enumerated as its file says."""
    if ns.names_from == "reference":
        return {e.key: None for e in ns.entries if not e.member}
    module = import_name(ns.namespace)
    if ns.names_from == "__all__":
        return {name: getattr(module, name, None) for name in module.__all__}
    found = {}
    for name in dir(module):
        obj = getattr(module, name)
        if name.startswith("_") or isinstance(obj, types.ModuleType):
            continue
        if str(getattr(obj, "__module__", None) or "").startswith(ns.defined_in):
            found[name] = obj
    return found


def kind_of(obj: object, member: bool) -> str:
    """The Python-domain object type of ``obj``."""
    if inspect.isclass(obj):
        return "exception" if issubclass(obj, BaseException) else "class"
    if callable(obj) or isinstance(obj, (property, types.MethodDescriptorType)):
        return "method" if member else "function"
    return "attribute" if member else "data"


@functools.cache
def _snippet_uses(path: Path) -> uses.Uses:
    return uses.read(path.read_text(encoding="utf-8"))


def _identity(name: str) -> int | None:
    """``id`` of the class or function a dotted name stands for (None for anything else)."""
    try:
        obj = import_name(name)
    except (ImportError, AttributeError, ValueError):
        return None
    return id(obj) if inspect.isclass(obj) or callable(obj) else None


@functools.cache
def _snippet_identities(path: Path) -> frozenset[int]:
    """The classes and functions (by ``id``) a snippet reaches through torch names."""
    found = (_identity(name) for name in _snippet_uses(path).dotted if name.startswith("torch"))
    return frozenset(i for i in found if i is not None)


def snippet_uses(path: Path, entry: Entry) -> bool:
    """Whether the snippet at ``path`` uses ``entry``'s name (by name, or the same object)."""
    if _snippet_uses(path).uses(entry.name, entry.member):
        return True
    target = _identity(entry.name)
    return target is not None and target in _snippet_identities(path)
