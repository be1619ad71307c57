"""The real parameter lists of the installed torch, for the names the pages use.

How a name is found
    ``dotted.name`` is imported (the longest importable module prefix, then attributes).
    :data:`refsite.signature_pages.SHORT_NAMES` maps the few short class names the pages use (``Tensor``, ...) to their
    full names. A method reached through its class loses its leading ``self``.

Where the parameters come from
    :func:`inspect.signature` where it answers. For C++ builtins and pybind classes, the
    documented overloads (docstring lines that start with ``name(``) and the overloads torch's
    type stubs declare; :data:`BINDINGS` overrides both where both are wrong.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import re
import types
import warnings
from pathlib import Path

from refsite.signature_pages import (KO, NO_DEFAULT, PK, PO, VK, VP, Entry, Param, bracket_depth,
                                     full_name, parse_entry)

_DOC_PREFIX = re.compile(r"^(?:\.\.\s+(?:function|method)::\s*|\d+\.\s+)?")


def resolve(name: str) -> tuple[object, object]:
    """The object a dotted name stands for, and what it was an attribute of."""
    with warnings.catch_warnings():
        # torch.distributed.optim uses torch.jit.script/interface internally (deprecated in
        # 2.13); the pages' snippets filter the same warnings by message.
        warnings.filterwarnings("ignore", message="`torch.jit.(script|interface)` is deprecated",
                                category=DeprecationWarning)
        return _resolve(name)


def _resolve(name: str) -> tuple[object, object]:
    parts = full_name(name).split(".")
    try:  # a function named like its own submodule (torch.multiprocessing.spawn): the function
        parent = importlib.import_module(".".join(parts[:-1]))
        attr = getattr(parent, parts[-1])
        if not isinstance(attr, types.ModuleType):
            return attr, parent
    except (ImportError, AttributeError, ValueError):
        pass
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        owner = None
        for attr in parts[cut:]:
            owner = obj
            obj = getattr(obj, attr)  # AttributeError: the name does not exist
        return obj, owner
    raise ImportError(f"no module in {name!r}")


def is_method(obj: object, owner: object, name: str) -> bool:
    """Whether ``obj`` is a function reached through its class (its ``self`` comes first)."""
    return isinstance(owner, type) and not isinstance(obj, type) and not isinstance(
        inspect.getattr_static(owner, name.rsplit(".", 1)[-1], None), (staticmethod, classmethod))


def from_inspect(obj: object, is_method: bool) -> list[Param] | None:
    try:
        sig = inspect.signature(obj)
    except (ValueError, TypeError):
        return None
    params = list(sig.parameters.values())
    if is_method and params and params[0].name == "self":
        params = params[1:]
    return [Param(p.name, p.kind, p.default) for p in params]


#: Builtins whose docstring and stub both disagree with the binding itself, with the binding's
#: parameter list (from its hand-written parser declaration in torch's C++ source, which the
#: wheel does not ship) and a call that must work and one that must fail on the installed torch
#: (``test_binding_overrides_hold``), so that an entry here cannot outlive its truth.
BINDINGS: dict[str, tuple[str, str, str]] = {
    # docstring: device has no default; stub: dtype and device positional. Both wrong.
    "torch.as_tensor": ("data, *, dtype=None, device=None",
                        "torch.as_tensor([1], dtype=None, device=None)",
                        "torch.as_tensor([1], None)"),
    # docstring: "bool pivot=True" (a C++ type in it, unparseable); no stub.
    "torch.linalg.lu_factor": ("A, *, pivot=True, out=None",
                               "torch.linalg.lu_factor(torch.eye(2), pivot=True)",
                               "torch.linalg.lu_factor(torch.eye(2), True)"),
}

_STUBS: dict[str, ast.Module] = {}


def _stub_modules() -> list[ast.Module]:
    """The type stubs torch ships for its C extension (``torch/_C/*.pyi``), parsed once."""
    if not _STUBS:
        import torch

        for path in sorted(Path(torch.__file__).parent.joinpath("_C").glob("*.pyi")):
            _STUBS[path.name] = ast.parse(path.read_text(encoding="utf-8"))
    return list(_STUBS.values())


def _stub_params(fn: ast.FunctionDef) -> list[Param]:
    a = fn.args
    text = [None] * (len(a.posonlyargs) + len(a.args) - len(a.defaults)) + [
        ast.unparse(d) for d in a.defaults]
    params = [Param(x.arg, PO, NO_DEFAULT) for x in a.posonlyargs]
    params += [Param(x.arg, PK, NO_DEFAULT) for x in a.args]
    for p, d in zip(params, text):
        p.default = NO_DEFAULT if d is None else d
    if a.vararg:
        params.append(Param(a.vararg.arg, VP, NO_DEFAULT))
    for x, d in zip(a.kwonlyargs, a.kw_defaults):
        params.append(Param(x.arg, KO, NO_DEFAULT if d is None else ast.unparse(d)))
    if a.kwarg:
        params.append(Param(a.kwarg.arg, VK, NO_DEFAULT))
    if params and params[0].name == "self":
        params = params[1:]
    return params


def stubbed(obj: object, name: str, owner: object) -> list[list[Param]]:
    """The overloads torch's type stubs declare for a builtin (its binding's signatures)."""
    short = name.rsplit(".", 1)[-1]
    classes = set()
    if isinstance(obj, type):
        classes, short = {c.__name__ for c in obj.__mro__}, "__init__"
    elif isinstance(owner, type):
        classes = {c.__name__ for c in owner.__mro__}
    found = []
    for module in _stub_modules():
        scopes = [module] if not classes else [
            n for n in module.body if isinstance(n, ast.ClassDef) and n.name in classes]
        for scope in scopes:
            found += [_stub_params(n) for n in scope.body
                      if isinstance(n, ast.FunctionDef) and n.name == short]
    return found


def documented(obj: object, name: str) -> list[list[Param]]:
    """The overloads a builtin's docstring documents (``name(...)`` lines; in a submodule's
    docstrings the name may carry the submodule, as ``linalg.det(...)`` does)."""
    parts = full_name(name).split(".")
    heads = (parts[-1] + "(", ".".join(parts[-2:]) + "(", ".".join(parts) + "(")
    doc = obj.__init__.__doc__ if isinstance(obj, type) else obj.__doc__
    if isinstance(obj, type):
        heads = ("__init__(",)
    lines = (doc or "").splitlines()
    overloads = []
    for i, line in enumerate(lines):
        text = _DOC_PREFIX.sub("", line.strip())
        if not text.startswith(heads):
            continue
        while bracket_depth(text) > 0 and i + 1 < len(lines):
            i += 1
            text += " " + lines[i].strip()
        entry = Entry("doc", text)
        try:
            parse_entry(entry)
        except ValueError:
            continue
        params = [p for p in entry.params if isinstance(p, Param)]
        if params and params[0].name == "self":
            params = params[1:]
        overloads.append(params)
    return overloads
