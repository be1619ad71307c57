"""Comparing the pages' signature entries with the installed torch.

What is compared
    The parameter list: names, order, kinds (positional-only before ``/``, keyword-only after
    ``*`` or ``*args``, ``*args``, ``**kwargs``) and defaults. Annotations and the return
    part are not compared. Defaults are compared as values: the page's default is evaluated
    (with ``torch``, ``pickle``, ``sys``, ``datetime``, ``timedelta``, ``ReduceOp`` and the
    function's own module globals in scope) and must equal the real one, of the same type.

    The real parameter list is :func:`inspect.signature`'s. Where there is none (C++
    builtins such as ``torch.zeros`` or ``Tensor.to``, pybind classes such as ``TCPStore``),
    it is the documented signature: each line of the object's docstring that starts with
    ``name(`` (after an optional ``.. function::``/``.. method::`` or overload number) is one
    overload, and the entry must match one of them. For those, defaults that cannot be
    evaluated are compared as normalized source text.

Each ``check_*`` function returns a list of problems, each naming the page, line and entry.
"""

from __future__ import annotations

import ast
import datetime
import inspect
import pickle
import sys
from pathlib import Path

from refsite.signature_pages import (ELLIPSIS, KO, NO_DEFAULT, PK, VK, VP, Entry, Param, page_entries,
                             parse_entry, parse_params)
from refsite.lint.signature_sources import BINDINGS, documented, from_inspect, is_method, resolve, stubbed


def _namespace(obj: object) -> dict:
    ns: dict = {}
    module = sys.modules.get(getattr(obj, "__module__", None) or "")
    ns.update(vars(module) if module else {})
    ns.update(getattr(inspect.unwrap(obj) if callable(obj) else obj, "__globals__", {}))
    import torch
    import torch.distributed

    ns.update(torch=torch, pickle=pickle, sys=sys, datetime=datetime,
              timedelta=datetime.timedelta, ReduceOp=torch.distributed.ReduceOp)
    return ns


def _same_value(a: object, b: object) -> bool:
    if a is b:
        return True
    try:
        return type(a) is type(b) and bool(a == b)
    except Exception:
        return False


def _norm(text: str) -> str:
    try:
        return ast.unparse(ast.parse(text, mode="eval"))
    except SyntaxError:
        return text.strip()


def same_default(page: str, real: object, real_is_text: bool, ns: dict) -> bool:
    if real_is_text and real == "...":  # a stub that does not spell its default out
        return True
    try:
        page_value = eval(page, dict(ns))  # noqa: S307 - trusted page text, in a test
    except Exception:
        page_value = None
        if not real_is_text:
            return False
    if not real_is_text:
        return _same_value(page_value, real)
    try:
        return _same_value(page_value, eval(real, dict(ns)))  # noqa: S307
    except Exception:
        return _norm(page) == _norm(str(real))


def _show(p: Param) -> str:
    stars = {VP: "*", VK: "**"}.get(p.kind, "")
    default = "" if p.default is NO_DEFAULT else f"={p.default!r}"
    return f"{stars}{p.name}{default} ({p.kind.description})"


def compare(page: list[Param | str], real: list[Param], real_is_text: bool, ns: dict) -> list[str]:
    """What differs between the page's parameter list and a real one (empty: they match)."""
    problems: list[str] = []
    j = 0
    skipping = False
    for item in page:
        if item == ELLIPSIS:
            skipping = True
            continue
        assert isinstance(item, Param)
        if skipping:
            names = [p.name for p in real[j:]]
            if item.name not in names:
                return problems + [f"parameter {item.name!r} is not a real parameter here "
                                   f"(real: {', '.join(p.name for p in real) or 'none'})"]
            j += names.index(item.name)
        if j >= len(real):
            return problems + [f"parameter {item.name!r} does not exist (real parameters end "
                               f"before it)"]
        actual = real[j]
        if actual.name != item.name:
            return problems + [f"parameter {item.name!r} is {actual.name!r} in torch (real: "
                               f"{', '.join(_show(p) for p in real)}); write '...' where "
                               f"parameters are left out"]
        kind_ok = item.kind == actual.kind or (
            item.after_ellipsis and item.kind == PK and actual.kind == KO)
        if not kind_ok:
            problems.append(f"parameter {item.name!r} is {actual.kind.description}, the page "
                            f"makes it {item.kind.description}")
        if (item.default is NO_DEFAULT) != (actual.default is NO_DEFAULT):
            real_default = ("no default" if actual.default is NO_DEFAULT
                            else f"default {actual.default!r}")
            page_default = ("no default" if item.default is NO_DEFAULT
                            else f"default {item.default}")
            problems.append(f"parameter {item.name!r} has {real_default}, the page says "
                            f"{page_default}")
        elif item.default is not NO_DEFAULT and not same_default(item.default, actual.default,
                                                            real_is_text, ns):
            problems.append(f"parameter {item.name!r} defaults to {actual.default!r}, the page "
                            f"says {item.default}")
        j += 1
        skipping = False
    if j < len(real) and not skipping:
        problems.append(f"the page leaves out {', '.join(p.name for p in real[j:])} without "
                        f"'...'")
    return problems


def check_entry(entry: Entry) -> list[str]:
    """Problems with one entry, each prefixed with where it is."""
    where = f"{entry.where}: {entry.text!r}"
    try:
        parse_entry(entry)
    except ValueError as exc:
        return [f"{where}: {exc}"]
    if ELLIPSIS in entry.params and not entry.comment:
        return [f"{where}: uses '...' without a '#' comment saying what it leaves out"]
    try:
        obj, owner = resolve(entry.name)
    except (ImportError, AttributeError) as exc:
        return [f"{where}: {entry.name!r} is not an API of the installed torch ({exc})"]
    ns = _namespace(obj)
    real = from_inspect(obj, is_method(obj, owner, entry.name))
    if real is not None:
        problems = compare(entry.params, real, False, ns)
        return [f"{where}: {p}" for p in problems]
    overloads = documented(obj, entry.name) + stubbed(obj, entry.name, owner)
    if entry.name in BINDINGS:
        overloads = [[p for p in parse_params(BINDINGS[entry.name][0]) if isinstance(p, Param)]]
    if not overloads:
        return [f"{where}: {entry.name!r} has neither an inspectable nor a documented signature"]
    results = [compare(entry.params, o, True, ns) for o in overloads]
    if any(not r for r in results):
        return []
    best = min(results, key=len)
    return [f"{where}: matches none of the {len(overloads)} documented or declared "
            f"overload(s); closest: {'; '.join(best)}"]


def check_docs(docs: Path) -> list[str]:
    problems = []
    for entry in page_entries(docs):
        problems += check_entry(entry)
    return problems
