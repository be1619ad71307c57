"""The column budget of snippet sources: every line of a snippet, docstring and comments
included, fits the code column of an article at 1280 and 1440 px, in English and in the
Chinese-commented file the Chinese pages show.

A source block keeps its lines (``white-space: pre``: a copied line is what runs), so a longer
line makes its block scroll sideways. :data:`BUDGET` is the columns a source block shows whole at
both widths (``verified_snippets.css``, "Laptops and wider"), in monospace columns: a CJK character (East
Asian width ``W`` or ``F``) takes two. :func:`wide_lines` lists the lines over it;
``python -m refsite.lint.code_width`` prints them for every snippet, widest first.

:data:`NOT_YET` names the snippets still over the budget, each with its widest line now: a listed
file may not grow, and once it fits its entry must go (the list only shrinks). Each says why it
is not reflowed here: something keyed on the file's bytes that this machine cannot write again (a
GPU record, the multi-node records), or a reflow that would change what is recorded.
"""

from __future__ import annotations

import sys
import unicodedata
from pathlib import Path

from refsite.snippets.localized import localize

#: Monospace columns a source block shows whole at both widths: 97.9 at 1280 px and 105.7 at
#: 1440 px, in both languages (a glyph of the theme's 14 px monospace is 8.43 px wide; the layout
#: is in ``verified_snippets.css``), so 97. A CJK glyph there is narrower than two columns, so
#: counting two is on the safe side.
BUDGET = 97


def columns(line: str) -> int:
    """The monospace columns ``line`` takes: two for a wide or full-width (CJK) character."""
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in line)


def wide_lines(text: str, budget: int = BUDGET) -> list[tuple[int, int]]:
    """(line number, columns) of each line of ``text`` wider than ``budget``."""
    return [(number, width) for number, line in enumerate(text.splitlines(), 1)
            if (width := columns(line)) > budget]


def widest(text: str) -> int:
    return max((columns(line) for line in text.splitlines()), default=0)


def snippet_widths(path: Path) -> dict[str, str]:
    """The English source and the Chinese-commented one of the snippet ``path``, by language."""
    return {"en": path.read_text(encoding="utf-8"), "zh": localize(path).text}


def problems(path: Path, name: str, allowed: int | None = None, budget: int = BUDGET) -> list[str]:
    """What is wrong with the snippet ``path`` (shown as ``name``): lines over the budget, or, for
    a file listed in :data:`NOT_YET` with its widest line ``allowed``, a wider line or an entry
    no longer needed."""
    texts = snippet_widths(path)
    most = max(widest(text) for text in texts.values())
    if allowed is not None:
        if most <= budget:
            return [f"{name}: fits the budget of {budget} columns now; remove it from NOT_YET"]
        if most > allowed:
            return [f"{name}: widest line {most} columns, over its NOT_YET entry ({allowed}); "
                    f"reflow it to {budget}"]
        return []
    return [f"{name} ({lang}):{number}: {width} columns, over the budget of {budget}; wrap the call "
            f"inside its parentheses, or shorten the comment"
            for lang, text in texts.items() for number, width in wide_lines(text, budget)]


#: Snippets over the budget not reflowed yet (relative to ``snippets/``) -> their widest line
#: (either language) now, each with why.
NOT_YET: dict[str, int] = {
    # a GPU record (init_env.nccl-cuda-1.out.json): only a GPU machine can write it again
    "distributed/init_env.py": 104,
    # its record holds its own line numbers (py-spy's stacks): a wrapped line 28 moves them
    "debugging/py_spy_dump.py": 98,
    # the wide line is in the worker script; the records mask torch's paths by the venv's
    # location, which a worktree's symlinked .venv hides: re-record them from a plain checkout
    "debugging/torchrun_report.py": 101,
    "debugging/torchrun_no_record.py": 101,
    # the wide lines are in the worker script, a string: its compat results key on it
    "debugging/child_failed_error.py": 101,
    "sharded/dcp_async_exit.py": 100,
    # the multi-node records (docs/measurements/cluster) key on their bytes: make cluster-records
    # (root, a virtual cluster) records them again
    "multinode/train_steps.py": 102,
    "multinode/allreduce_timing.py": 100,
}


def main(argv: list[str]) -> int:
    root = Path(argv[0]) if argv else Path("snippets")
    rows = []
    for path in sorted(root.rglob("*.py")):
        for lang, text in snippet_widths(path).items():
            for number, width in wide_lines(text):
                rows.append((width, f"{path}:{number} ({lang}) {width}"))
    for _, row in sorted(rows, reverse=True):
        print(row)
    return 1 if rows else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
