"""Write the measurement file of what a torch pin move changed in the records.

Usage: ``python -m refsite.commands.compat.changes_between OLD_COMMIT`` (the last commit whose records were made with
the old torch). Compares every record of that commit with the record now in the working tree, as
the test suite compares outputs, and writes
``docs/measurements/changes/torch-<old>-to-<new>.json`` (:mod:`refsite.measurements.change_files`):
per changed variant the unified diff of each rank (old record -> new record) and whether the
example itself was changed. The change page (``{record-changes}``) renders it. Reads records and
git only; imports no torch.
"""

from __future__ import annotations

import argparse
import datetime
import difflib
import subprocess
import sys
from pathlib import Path

from refsite import snippets
from refsite.measurements import change_files
from refsite.measurements.change_files import ChangeFile, RecordChange, write
from refsite.snippets.records import Record, comparable, read_record
from refsite import project

ROOT = project.root()
OUT = ROOT / change_files.CHANGES_DIR


def record_at(commit: str, rel: str, scratch: Path) -> Record | None:
    """The record ``rel`` (relative to the repository) as it was at ``commit``, or ``None``."""
    shown = subprocess.run(["git", "show", f"{commit}:{rel}"], cwd=ROOT, capture_output=True, text=True)
    if shown.returncode != 0:
        return None
    scratch.write_text(shown.stdout, encoding="utf-8")
    return read_record(scratch)


def rank_diff(old: Record, new: Record) -> list[str]:
    lines: list[str] = []
    for rank, (before, after) in enumerate(zip(old.ranks, new.ranks)):
        if comparable(before) != comparable(after):
            lines += difflib.unified_diff(before.splitlines(), after.splitlines(), f"rank {rank}, torch {old.torch}",
                                          f"rank {rank}, torch {new.torch}", lineterm="")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("commit", help="the last commit whose records were made with the old torch")
    args = parser.parse_args()
    commit = subprocess.run(["git", "rev-parse", "--short", args.commit], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout.strip()
    changes, compared, olds, news = [], 0, set(), set()
    scratch = OUT / ".old-record.json"
    OUT.mkdir(parents=True, exist_ok=True)
    try:
        for path in snippets.snippet_paths(ROOT / "snippets"):
            spec = snippets.read_spec(path)
            for variant in spec.variants:
                if not spec.record_path(variant).exists():
                    continue
                rel = spec.record_path(variant).relative_to(ROOT).as_posix()
                old = record_at(commit, rel, scratch)
                if old is None:
                    continue
                new = read_record(spec.record_path(variant))
                compared += 1
                olds.add(old.torch)
                news.add(new.torch)
                if diff := rank_diff(old, new):
                    changes.append(RecordChange(new.snippet, new.variant,
                                                old.source_sha256 != new.source_sha256, diff))
    finally:
        scratch.unlink(missing_ok=True)
    if len(olds) != 1 or len(news) != 1:
        print(f"error: the records of {commit} were made with torch {sorted(olds)} and today's with "
              f"{sorted(news)}; both sides must each have one torch", file=sys.stderr)
        return 1
    old_torch, new_torch = olds.pop(), news.pop()
    made = ChangeFile(old_torch, commit, new_torch, datetime.date.today().isoformat(),
                      f"python -m refsite.commands.compat.changes_between {args.commit}", compared, changes)
    path = write(OUT, made)
    print(f"{len(changes)} of {compared} records changed from torch {old_torch} to {new_torch} -> {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
