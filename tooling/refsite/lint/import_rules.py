"""The import rules between the worlds of the site's tooling and the harness.

Each module belongs to one world, by its dotted name; each world may import the standard
library, the worlds listed for it, and the third-party packages listed for it. Anything else is
a finding that names the module, the line and the rule. A module whose dotted name has a part
starting with ``_`` (``ranktest._server``) is private to its world. ``tests/layout/test_import_rules.py``
holds every module of ``refsite`` and ``ranktest`` to them, and plants a forbidden import to
show that the check fails.
"""

from __future__ import annotations

import ast
import dataclasses
import sys
from collections.abc import Iterable
from pathlib import Path


@dataclasses.dataclass(frozen=True)
class World:
    """Modules whose dotted name starts with one of ``prefixes``, and what they may import."""

    name: str
    prefixes: tuple[str, ...]
    may_import: tuple[str, ...]  # other worlds, by name
    third_party: tuple[str, ...]  # top-level package names
    exact: tuple[str, ...] = ()  # modules of this world by their whole name only


#: The worlds, most specific prefix first. ``ranktest`` never imports the site's tooling; the
#: format imports nothing but the standard library; Sphinx never meets pytest, ranktest or torch.
WORLDS = (
    World("shared", ("refsite.languages", "refsite.interface_words", "refsite.project",
                     "refsite.signature_pages", "refsite.site_builds", "refsite.myst_pages"), (), (),
          exact=("refsite",)),
    World("snippets", ("refsite.snippets",), ("shared",), ()),
    World("ledger", ("refsite.ledger",), ("shared",), ()),
    World("testing", ("refsite.testing",), ("shared", "snippets", "ranktest"),
          ("pytest", "_pytest", "torch", "numpy")),
    World("sphinxext", ("refsite.sphinxext",), ("shared", "snippets", "ledger"),
          ("sphinx", "docutils", "myst_parser", "jieba")),
    World("lint", ("refsite.lint",), ("shared", "snippets", "ledger"), ("torch", "markdown_it", "myst_parser")),
    World("ranktest", ("ranktest",), ("ranktest",), ("torch", "pytest", "_pytest", "numpy")),
)


def world_of(module: str) -> World | None:
    """The world ``module`` (a dotted name) belongs to; the longest matching prefix wins."""
    matches = [(len(p), w) for w in WORLDS for p in w.prefixes if module == p or module.startswith(p + ".")]
    matches += [(len(m), w) for w in WORLDS for m in w.exact if module == m]
    return max(matches, key=lambda m: m[0])[1] if matches else None


def _private(part: str) -> bool:
    """``_server`` is private; ``__version__`` is not a module."""
    return part.startswith("_") and not part.startswith("__")


def imported(source: str, module: str) -> Iterable[tuple[int, str]]:
    """Every module ``source`` imports (absolute name, with its line), at any depth of the code."""
    package = module.rpartition(".")[0]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            yield node.lineno, base
            for alias in node.names:  # ``from refsite import snippets`` imports a world too,
                # ``from ranktest import _procs`` a private module
                if (world_of(f"{base}.{alias.name}") not in (None, world_of(base))
                        or _private(alias.name)):
                    yield node.lineno, f"{base}.{alias.name}"


def problems(module: str, source: str, where: str) -> list[str]:
    """What breaks the rules in ``source``, the code of ``module`` (shown as ``where``)."""
    world = world_of(module)
    if world is None:
        return [f"{where}: module {module} belongs to no world of refsite.lint.import_rules.WORLDS"]
    allowed = {w.name for w in WORLDS if w.name in world.may_import} | {world.name}
    found = []
    for line, name in imported(source, module):
        top = name.split(".")[0]
        target = world_of(name)
        if target is not None:
            private = next((part for part in name.split(".")[1:] if _private(part)), None)
            if private and target.name != world.name:
                found.append(f"{where}:{line}: {module} ({world.name}) imports {name}, a private "
                             f"module of {target.name} ({private}); use the public API it exports")
            elif target.name not in allowed:
                found.append(f"{where}:{line}: {module} ({world.name}) imports {name} ({target.name}); "
                             f"{world.name} may import only {', '.join(sorted(allowed))}")
        elif top in sys.stdlib_module_names or top == "__future__":
            continue
        elif top not in world.third_party:
            found.append(f"{where}:{line}: {module} ({world.name}) imports {name}; {world.name} may import "
                         f"only the standard library{', ' if world.third_party else ''}"
                         f"{', '.join(world.third_party)} and {', '.join(sorted(allowed))}")
    return found


def check_package(root: Path, package: str) -> list[str]:
    """Every module of ``package``, whose folder is ``root``, held to the rules."""
    found = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root.parent).with_suffix("")
        parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
        found += problems(".".join(parts), path.read_text(encoding="utf-8"), str(path))
    return found
