"""Every ``make TARGET`` that a page, the README, a message or a docstring tells a reader to run
is a target of the Makefile (a renamed target leaves no instruction behind).

``tests/lint/test_make_targets.py`` runs :func:`unknown` on the checkout and on a planted one;
``python -m refsite.lint.make_targets`` checks the checkout.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

#: ``make X`` where it is code: after a backtick or a quote, or at the start of a (console) line.
MAKE = re.compile(r"(?:`{1,2}|['\"]|^\s*)make ([a-z][a-z0-9-]*)", re.M)
#: Where instructions are looked for, relative to the checkout.
WHERE = ("README.md", "Makefile", "conf.py", "docs/en", "docs/zh", "docs/ci", "tooling", "src", "tests", ".ci")


def targets(makefile: Path) -> set[str]:
    """The targets ``makefile`` defines."""
    return set(re.findall(r"^([a-z][a-z0-9-]*):", makefile.read_text(), re.M))


def named(root: Path) -> list[tuple[Path, int, str]]:
    """(file, line, target) of every ``make TARGET`` the checkout at ``root`` names."""
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
    """One finding per named target that the checkout's Makefile lacks."""
    known = targets(root / "Makefile")
    return [f"{file.relative_to(root)}:{line}: make {target}: the Makefile has no such target"
            for file, line, target in named(root) if target not in known]


def main(argv: list[str] | None = None) -> int:
    from refsite import project
    problems = unknown(project.root())
    print("\n".join(problems) or "every make target named is one of the Makefile's")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
