"""What the installed torch and the snippets hold for the API ledger (:mod:`refsite.ledger`): the
public names of a namespace, the kind of an object, and whether a snippet uses a name (by name, or
the same class or function under another public path). Shared by the ledger's check
(:mod:`refsite.lint.api_ledger`) and its writer (:mod:`refsite.lint.api_ledger_draft`).
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import re
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


def public_names(ns: Namespace, namespaces: list[Namespace] = ()) -> dict[str, object]:
    """The public names of ``ns`` in the installed torch, enumerated as its file says
    (``namespaces``: the whole ledger, which a "members" file's ``method_forms_of`` reads)."""
    if ns.names_from == "reference":
        return {e.key: None for e in ns.entries if not e.member}
    if ns.names_from == "members":
        return _members(ns, namespaces)
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


def _members(ns: Namespace, namespaces: list[Namespace]) -> dict[str, object]:
    """A class's public members as its "members" file says (:data:`refsite.ledger.NAMES_FROM`)."""
    cls = import_name(ns.namespace)
    base = import_name(ns.inherited_from) if ns.inherited_from else object
    names = {n for n in dir(cls) if not n.startswith("_") and not hasattr(base, n)}
    if getattr(cls, "__getitem__", None) not in (None, getattr(base, "__getitem__", None)):
        names.add("__getitem__")
    if ns.method_forms_of:
        listed = {e.key for other in namespaces if other.namespace == ns.method_forms_of
                  for e in other.entries if not e.member}
        names = {n for n in names if n in listed or n.removesuffix("_") in listed or n in ns.also}
    found = {name: getattr(cls, name) for name in sorted(names)}
    for name in ns.instance_attributes:
        if name not in found and instance_attribute(cls, name):
            found[name] = InstanceAttribute(ns.namespace, name)
    return found


@dataclasses.dataclass(frozen=True)
class InstanceAttribute:
    """A public attribute that each instance of ``owner`` sets and ``dir()`` of the class misses."""

    owner: str
    name: str


def instance_attribute(cls: type, name: str) -> bool:
    """Whether the source of ``cls`` (or of a base defined in torch) assigns ``self.<name>``."""
    pattern = re.compile(rf"\bself\.{re.escape(name)}\s*(?::[^=\n]+)?=(?!=)")
    for klass in cls.__mro__:
        if not klass.__module__.startswith("torch"):
            continue
        try:
            source = inspect.getsource(klass)
        except (OSError, TypeError):
            continue
        if pattern.search(source):
            return True
    return False


def kind_of(obj: object, member: bool) -> str:
    """The Python-domain object type of ``obj`` (a member as found on its class, without calling
    a descriptor: a property or a C getter is a property)."""
    if isinstance(obj, InstanceAttribute):
        return "attribute"
    if member and isinstance(obj, (property, types.GetSetDescriptorType, types.MemberDescriptorType)):
        return "property"
    if inspect.isclass(obj):
        return "exception" if issubclass(obj, BaseException) else "class"
    if callable(obj) or isinstance(obj, (property, types.MethodDescriptorType)):
        return "method" if member else "function"
    return "attribute" if member else "data"


@functools.cache
def _has_method_form(key: str) -> bool:
    return callable(getattr(import_name("torch.Tensor"), key, None))


@functools.cache
def _snippet_uses(path: Path) -> uses.Uses:
    return uses.read(path.read_text(encoding="utf-8"))


def identity(name: str) -> int | None:
    """``id`` of the class or function a dotted name stands for (None for anything else)."""
    try:
        obj = import_name(name)
    except (ImportError, AttributeError, ValueError):
        return None
    return id(obj) if inspect.isclass(obj) or callable(obj) else None


@functools.cache
def _snippet_identities(path: Path) -> frozenset[int]:
    """The classes and functions (by ``id``) a snippet reaches through torch names."""
    found = (identity(name) for name in _snippet_uses(path).dotted if name.startswith("torch"))
    return frozenset(i for i in found if i is not None)


def snippet_uses(path: Path, entry: Entry) -> bool:
    """Whether the snippet at ``path`` uses ``entry``'s name (by name, or the same object). A
    ``torch`` function with a method form (``torch.reshape``, ``x.reshape``) is used by either."""
    found = _snippet_uses(path)
    if found.uses(entry.name, entry.member):
        return True
    if entry.namespace == "torch" and not entry.member and _has_method_form(entry.key):
        if found.uses(f"torch.Tensor.{entry.key}", member=True):
            return True
    target = identity(entry.name)
    return target is not None and target in _snippet_identities(path)
