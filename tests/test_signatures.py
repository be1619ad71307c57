"""Every ```{signature}``` block on the site matches the installed (pinned) torch.

The doc build never imports torch; this test does, and compares.

What a block may hold
    One or more *entries*. An entry is ``dotted.name(PARAMS)``, optionally followed by
    ``-> RETURN``, and may run over several lines while a bracket is open or while the next
    line starts with ``->``. A ``#`` comment may follow; it is not compared. Anything else
    (an assignment, an example call with values, an indexing expression) is an error: example
    calls belong in snippets, where their output is recorded.

How a name is found
    ``dotted.name`` is imported (the longest importable module prefix, then attributes).
    :data:`ALIASES` maps the few short class names the pages use (``Tensor``, ...) to their
    full names. A method reached through its class loses its leading ``self``.

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

Abbreviations
    A parameter written ``...`` stands for zero or more real parameters left out at that
    point (and may hide a bare ``*``, so a parameter written after it may be keyword-only).
    Parameters may be left out nowhere else: a real parameter missing from the page at a
    place without ``...`` is an error. An entry that uses ``...`` must carry a ``#`` comment
    saying what it hides. (``timeout=...`` as a *default* is not an abbreviation; it is an
    error unless the default is really ``Ellipsis``.)

Each ``check_*`` function returns a list of problems, each naming the page, line and entry;
the tests run them on the real pages, and on planted mistakes to show that they can fail.
"""

from __future__ import annotations

import ast
import dataclasses
import datetime
import importlib
import types
import warnings
import inspect
import io
import pickle
import re
import sys
import tokenize
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
DOCS = REPO / "docs"
LANGUAGES = ("en", "zh")

#: Short class names the pages use in signature blocks, and what they stand for.
ALIASES = {
    "Tensor": "torch.Tensor",
    "Forkserver": "harness.Forkserver",
    "RunResult": "harness.RunResult",
}

_BLOCK = re.compile(r"^(`{3,}|~{3,}|:{3,})\s*\{signature\}[^\n]*\n(.*?)^\1\s*$",
                    re.MULTILINE | re.DOTALL)
_HEAD = re.compile(r"^\s*([A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)*)\s*\(")
_PARAM = re.compile(r"^(\*{0,2})([A-Za-z_]\w*)\s*(?::\s*(.+?))?\s*(?:=\s*(.+))?$", re.DOTALL)
_DOC_PREFIX = re.compile(r"^(?:\.\.\s+(?:function|method)::\s*|\d+\.\s+)?")

ELLIPSIS = "..."
NO_DEFAULT = inspect.Parameter.empty
PO, PK, VP, KO, VK = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD,
                      inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.KEYWORD_ONLY,
                      inspect.Parameter.VAR_KEYWORD)


@dataclasses.dataclass
class Param:
    name: str
    kind: inspect._ParameterKind
    default: object  # page: source text of the default; real: its value; or NO_DEFAULT
    after_ellipsis: bool = False


@dataclasses.dataclass
class Entry:
    """One signature written in a block."""

    where: str  # "page:line"
    text: str
    name: str = ""
    params: list[Param | str] = dataclasses.field(default_factory=list)  # str: ELLIPSIS
    comment: str = ""


# ---------------------------------------------------------------- reading the pages


def blocks(text: str) -> list[tuple[int, str]]:
    """(line of the first body line, body) of each signature block of a page."""
    return [(text[:m.start(2)].count("\n") + 1, m.group(2)) for m in _BLOCK.finditer(text)]


def _split_comment(line: str) -> tuple[str, str]:
    """The code of one line and its ``#`` comment (a ``#`` inside a string is code)."""
    try:
        for tok in tokenize.generate_tokens(io.StringIO(line).readline):
            if tok.type == tokenize.COMMENT:
                return line[:tok.start[1]].rstrip(), tok.string[1:].strip()
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass
    return line.rstrip(), ""


def _depth(text: str) -> int:
    depth, quote = 0, None
    for ch in text:
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
    return depth


def entries(body: str, where: str, first_line: int) -> list[Entry]:
    """The entries of a block body: lines joined while brackets are open or ``->`` follows."""
    out: list[Entry] = []
    lines = body.splitlines()
    i = 0
    while i < len(lines):
        if not lines[i].strip():
            i += 1
            continue
        start = i
        code, comment = _split_comment(lines[i])
        comments = [comment] if comment else []
        i += 1
        if not code.strip():  # a comment line of its own: it belongs to the entry above it
            if comment and out and start > 0 and lines[start - 1].strip():
                out[-1].comment += " " + comment
            continue
        while i < len(lines) and (_depth(code) > 0 or lines[i].lstrip().startswith("->")):
            more, comment = _split_comment(lines[i])
            code += " " + more.strip()
            if comment:
                comments.append(comment)
            i += 1
        entry = Entry(f"{where}:{first_line + start}", code.strip(), comment=" ".join(comments))
        out.append(entry)
    return out


def split_top(text: str) -> list[str]:
    """``text`` split at the commas that are not inside brackets or strings."""
    parts, depth, quote, cur = [], 0, None, ""
    for ch in text:
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
            continue
        cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts


def parse_params(text: str) -> list[Param | str]:
    """Parse a parameter list written as in a signature (``*size, *`` and ``start=0, end``
    are allowed, as torch documents them). Raises ValueError on anything else."""
    params: list[Param | str] = []
    kind = PK
    after_ellipsis = False
    for part in split_top(text.replace("\\*", "*")):
        if part == ELLIPSIS:
            params.append(ELLIPSIS)
            after_ellipsis = True
            continue
        if part == "/":
            for p in params:
                if isinstance(p, Param) and p.kind == PK:
                    p.kind = PO
            continue
        if part == "*":
            kind = KO
            continue
        match = _PARAM.match(part)
        if not match:
            raise ValueError(f"not a parameter: {part!r}")
        stars, name, _annotation, default = match.groups()
        if stars == "*":
            params.append(Param(name, VP, NO_DEFAULT, after_ellipsis))
            kind = KO
        elif stars == "**":
            params.append(Param(name, VK, NO_DEFAULT, after_ellipsis))
        else:
            params.append(Param(name, kind, default.strip() if default else NO_DEFAULT,
                                after_ellipsis))
    return params


def parse_entry(entry: Entry) -> None:
    """Fill ``entry.name`` and ``entry.params``; raise ValueError if it is not a signature."""
    head = _HEAD.match(entry.text)
    if not head:
        raise ValueError("not a signature (expected 'dotted.name(parameters) [-> return]'); "
                         "example code belongs in a snippet")
    start = head.end() - 1
    depth, end = 0, None
    for pos in range(start, len(entry.text)):
        depth += {"(": 1, ")": -1}.get(entry.text[pos], 0)
        if depth == 0:
            end = pos
            break
    if end is None:
        raise ValueError("unbalanced parentheses")
    rest = entry.text[end + 1:].strip()
    if rest and not rest.startswith("->"):
        raise ValueError(f"unexpected text after the parameters: {rest!r}")
    entry.name = head.group(1)
    entry.params = parse_params(entry.text[start + 1:end])


# ---------------------------------------------------------------- the real signatures


def resolve(name: str) -> tuple[object, object]:
    """The object a dotted name stands for, and what it was an attribute of."""
    with warnings.catch_warnings():
        # torch.distributed.optim uses torch.jit.script/interface internally (deprecated in
        # 2.13); the pages' snippets filter the same warnings by message.
        warnings.filterwarnings("ignore", message="`torch.jit.(script|interface)` is deprecated",
                                category=DeprecationWarning)
        return _resolve(name)


def _resolve(name: str) -> tuple[object, object]:
    first, _, tail = name.partition(".")
    if first in ALIASES:
        name = ALIASES[first] + ("." + tail if tail else "")
    parts = name.split(".")
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


def _is_method(obj: object, owner: object, name: str) -> bool:
    """Whether ``obj`` is a function reached through its class (its ``self`` comes first)."""
    return isinstance(owner, type) and not isinstance(obj, type) and not isinstance(
        inspect.getattr_static(owner, name.rsplit(".", 1)[-1], None), (staticmethod, classmethod))


def _from_inspect(obj: object, is_method: bool) -> list[Param] | None:
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
    """The overloads a builtin's docstring documents (``name(...)`` lines)."""
    short = name.rsplit(".", 1)[-1]
    doc = obj.__init__.__doc__ if isinstance(obj, type) else obj.__doc__
    if isinstance(obj, type):
        short = "__init__"
    lines = (doc or "").splitlines()
    overloads = []
    for i, line in enumerate(lines):
        text = _DOC_PREFIX.sub("", line.strip())
        if not text.startswith(short + "("):
            continue
        while _depth(text) > 0 and i + 1 < len(lines):
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


# ---------------------------------------------------------------- comparing


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
    real = _from_inspect(obj, _is_method(obj, owner, entry.name))
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


def page_entries(docs: Path) -> list[Entry]:
    """Every entry of every signature block under ``docs/<lang>``."""
    found = []
    for lang in LANGUAGES:
        for page in sorted((docs / lang).rglob("*.md")):
            rel = page.relative_to(docs).as_posix()
            for line, body in blocks(page.read_text(encoding="utf-8")):
                found += entries(body, rel, line)
    return found


def check_docs(docs: Path) -> list[str]:
    problems = []
    for entry in page_entries(docs):
        problems += check_entry(entry)
    return problems


# ---------------------------------------------------------------- tests


def test_every_signature_matches_the_installed_torch() -> None:
    found = page_entries(DOCS)
    assert len(found) > 100, "signature blocks not found: has the directive name changed?"
    problems = check_docs(DOCS)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("name", sorted(BINDINGS))
def test_binding_overrides_hold(name: str) -> None:
    import torch

    _params, works, fails = BINDINGS[name]
    eval(works, {"torch": torch})  # noqa: S307
    with pytest.raises(TypeError):
        eval(fails, {"torch": torch})  # noqa: S307


def _plant(tmp_path: Path, body: str) -> Path:
    for lang in LANGUAGES:
        (tmp_path / lang).mkdir()
    (tmp_path / "en" / "page.md").write_text(f"# T\n\n```{{signature}}\n{body}\n```\n")
    return tmp_path


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("torch.nn.functional.mse_loss(input, target, size_average=None, reduce=None,\n"
         "                             reduction='sum', weight=None) -> Tensor",
         "'reduction' defaults to 'mean', the page says 'sum'"),
        ("torch.zeros(*size, *, out=None, dtype=None, layout=torch.strided, device=None,\n"
         "            requires_grad=True) -> Tensor",
         "matches none of the"),
        ("torch.distributed.all_reduce(tensor, group=None, op=ReduceOp.SUM, async_op=False)",
         "parameter 'group' is 'op' in torch"),
        ("torch.distributed.all_reduce(tensor, op=ReduceOp.SUM, group=None)",
         "leaves out async_op without '...'"),
        ("torch.distributed.all_reduce(tensor, op=ReduceOp.SUM, ...)",
         "without a '#' comment"),
        ("torch.is_tensor(obj)", "is positional-only, the page makes it positional or keyword"),
        ("torch.nn.MSELoss(size_average=None, reduce=None, reduction=None)",
         "defaults to 'mean', the page says None"),
        ("torch.zeros(2, dtype=torch.float64)", "not a parameter"),
        ("model = Model().to(device)", "not a signature"),
        ("torch.no_such_function(x)", "is not an API of the installed torch"),
    ],
)
def test_check_flags_planted_mistakes(tmp_path: Path, body: str, expected: str) -> None:
    problems = check_docs(_plant(tmp_path, body))
    assert problems and any(expected in p for p in problems), problems
    assert all(p.startswith("en/page.md:4") for p in problems), problems


@pytest.mark.parametrize(
    "body",
    [
        "torch.distributed.all_reduce(tensor, op=ReduceOp.SUM, ...)  # and group, async_op",
        "torch.load(f, ..., weights_only=None, ...)  # map_location, pickle_module, mmap\n"
        "# an unrelated comment line",
        "torch.max(input, dim, keepdim=False, *, out=None)\n    -> (Tensor values, Tensor)",
        "torch.nn.MSELoss(size_average=None, reduce=None, reduction='mean')",
    ],
)
def test_check_accepts_correct_signatures(tmp_path: Path, body: str) -> None:
    assert check_docs(_plant(tmp_path, body)) == []
