"""Every ``make TARGET`` that a page, the README, a message or a docstring tells a reader to run
is a target of the Makefile (a renamed target leaves no instruction behind), and a planted
unknown one is named."""

from __future__ import annotations

import re
from pathlib import Path

from tests.support.paths import REPO

#: ``make X`` where it is code: after a backtick or a quote, or at the start of a (console) line.
MAKE = re.compile(r"(?:`{1,2}|['\"]|^\s*)make ([a-z][a-z0-9-]*)", re.M)
WHERE = ("README.md", "Makefile", "conf.py", "docs/en", "docs/zh", "docs/ci", "tooling", "src", "tests", ".ci")


def targets(makefile: Path) -> set[str]:
    return set(re.findall(r"^([a-z][a-z0-9-]*):", makefile.read_text(), re.M))


def named(root: Path) -> list[tuple[Path, int, str]]:
    found = []
    for where in WHERE:
        path = root / where
        files = [path] if path.is_file() else [p for p in path.rglob("*")
                                                if p.is_file() and p.suffix in (".md", ".py", ".yml", ".txt", "")]
        for file in files:
            text = file.read_text(errors="replace")
            found += [(file, text.count("\n", 0, m.start()) + 1, m.group(1)) for m in MAKE.finditer(text)]
    return found


def unknown(root: Path) -> list[str]:
    known = targets(root / "Makefile")
    return [f"{file.relative_to(root)}:{line}: make {target}: the Makefile has no such target"
            for file, line, target in named(root) if target not in known]


def test_every_make_target_named_exists() -> None:
    assert len(named(REPO)) > 100  # the scan sees the instructions
    problems = unknown(REPO)
    assert not problems, "\n".join(problems)


def test_a_planted_unknown_target_is_named(tmp_path: Path) -> None:
    (tmp_path / "Makefile").write_text("test:\n\ttrue\n")
    (tmp_path / "README.md").write_text("Run `make test`, then `make" + " tset`.\n")  # split: not in this file
    assert unknown(tmp_path) == ["README.md:1: make tset: the Makefile has no such target"]
