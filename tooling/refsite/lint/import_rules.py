"""The import rules between the worlds of the site's tooling and the harness.

Each module belongs to one world, by its dotted name; each world may import the standard
library, the worlds listed for it, and the third-party packages listed for it. Anything else is
a finding that names the module, the line and the rule. A module whose dotted name has a part
starting with ``_`` (``ranktest._server``) is private to its world. ``tests/layout/test_import_rules.py``
holds every module of ``refsite`` and ``ranktest`` to them, and plants a forbidden import to
show that the check fails.

:data:`WORLDS` is where the architecture is stated: the README and ``refsite``'s docstring hold
its rendering (:func:`architecture`) between marker lines, ``python -m
refsite.lint.import_rules --write`` rewrites them, and ``tests/layout/test_import_rules.py``
fails when they differ from it.
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
    purpose: str  # what the world is for, one line
    exact: tuple[str, ...] = ()  # modules of this world by their whole name only


#: The worlds, most specific prefix first. ``ranktest`` never imports the site's tooling; the
#: format imports nothing but the standard library; Sphinx never meets pytest, ranktest or torch.
WORLDS = (
    World("shared", ("refsite.languages", "refsite.interface_words", "refsite.project",
                     "refsite.signature_pages", "refsite.site_builds", "refsite.myst_pages"), (), (),
          "what every world may use: the languages and the interface words of each, the checkout, "
          "the pages' signature blocks and MyST structure, the site's build and its cache",
          exact=("refsite",)),
    World("snippets", ("refsite.snippets",), ("shared",), (),
          "the snippet file contract: headers, records, Chinese comments"),
    World("measurements", ("refsite.measurements",), ("shared", "snippets"), (),
          "the measurement files' formats: compat results, their read model and export, GPU captures, "
          "cluster records, pin-move changes, provenance"),
    World("ledger", ("refsite.ledger",), ("shared",), (), "the API ledger's format"),
    World("testing", ("refsite.testing",), ("shared", "snippets", "measurements", "ranktest"),
          ("pytest", "_pytest", "torch", "numpy"),
          "the pytest collector of snippet variants, runs through ranktest, pass reuse"),
    World("commands", ("refsite.commands",), ("shared", "snippets", "measurements", "testing", "ranktest"),
          ("pytest", "_pytest", "torch", "numpy"),
          "the measurement commands: make compat, bench, cluster-records, doctest-slurm, gpu-capture"),
    World("sphinxext", ("refsite.sphinxext",), ("shared", "snippets", "measurements", "ledger"),
          ("sphinx", "docutils", "myst_parser", "jieba", "babel", "fontTools"),
          "the Sphinx extensions: directives, roles, language switch, search; never torch"),
    World("lint", ("refsite.lint",), ("shared", "snippets", "measurements", "ledger"), ("torch", "markdown_it", "myst_parser"),
          "the checks of pages, snippets and code: parity of the two trees, prose, signatures, version "
          "notes, the ledger, glossary terms, public torch API and device_id in snippets, make targets "
          "named, outcomes judged by fields, these rules"),
    World("ranktest", ("ranktest",), ("ranktest",), ("torch", "pytest", "_pytest", "numpy"),
          "the harness (src/ranktest): forkserver, pytest plugin, virtual cluster, Slurm; never the "
          "site's tooling"),
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


#: The lines around the architecture's rendering in the files that state it.
BEGIN, END = "worlds: generated by python -m refsite.lint.import_rules --write", "end of worlds"
#: The files that state it, relative to the checkout, and how a marker line looks in each.
STATED_IN = {"README.md": "<!-- {} -->", "tooling/refsite/__init__.py": ".. {}"}


def architecture() -> list[str]:
    """The worlds as lines of text: name, modules, purpose, and what each may import."""
    lines = []
    for world in WORLDS:
        modules = ", ".join(f"``{p}``" for p in (*world.prefixes, *world.exact))
        imports = ["the standard library", *(f"``{w}``" for w in world.may_import if w != world.name),
                   *world.third_party]
        lines.append(f"- ``{world.name}`` ({modules}): {world.purpose}. Imports {', '.join(imports)}.")
    return lines


def stated(text: str, marker: str) -> list[str] | None:
    """The architecture lines between the markers of ``text``, or ``None`` without markers."""
    lines = text.splitlines()
    try:
        start, end = lines.index(marker.format(BEGIN)), lines.index(marker.format(END))
    except ValueError:
        return None
    return lines[start + 1:end]


def restate(text: str, marker: str) -> str:
    """``text`` with the lines between its markers replaced by :func:`architecture`."""
    lines = text.splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if line.rstrip("\n") == marker.format(BEGIN))
    end = next(i for i, line in enumerate(lines) if line.rstrip("\n") == marker.format(END))
    return "".join(lines[:start + 1]) + "".join(f"{line}\n" for line in architecture()) + "".join(lines[end:])


def main(argv: list[str]) -> int:
    from refsite import project
    root = project.root()
    for rel, marker in STATED_IN.items():
        path = root / rel
        if "--write" in argv:
            path.write_text(restate(path.read_text(encoding="utf-8"), marker), encoding="utf-8")
            print(f"rewrote the worlds in {rel}")
        elif stated(path.read_text(encoding="utf-8"), marker) != architecture():
            print(f"{rel}: the worlds differ from refsite.lint.import_rules.WORLDS; run with --write")
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
