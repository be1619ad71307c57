"""The FSDP1 -> FSDP2 migration table (``sharded/fsdp_migration``): every row names a pair of
snippets embedded on the page, and the pair's records agree as the row's last column says.

The table is read from the page in both languages; the records through
:func:`refsite.snippets.records.read_record`, so the test checks what the page shows.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from refsite.snippets import Record, read_spec
from refsite.snippets.records import read_record
from tests.support.paths import DOCS, SNIPPETS

PAGE = Path("sharded") / "fsdp_migration.md"
TABLE_LABEL = "(sharded-fsdp-migration-table)="
#: The pair whose FSDP1 losses an FSDP2 snippet must reproduce when its FSDP1 side cannot run.
REFERENCE = "migrate_full_shard_fsdp1.py"

#: The last column's verdicts, per language: (kind, pattern).
VERDICTS = {
    "en": [("equal", r"equal"), ("within", r"within (?P<tol>[0-9.e-]+)"),
           ("raises", r"FSDP1 raises on CPU")],
    "zh": [("equal", r"相等"), ("within", r"相差不超过 (?P<tol>[0-9.e-]+)"),
           ("raises", r"FSDP1 在 CPU 上报错")],
}

_LOSS = re.compile(r"^rank (\d+) step (\d+) loss (-?\d+\.\d+)$", re.M)
#: Other values a pair prints on both sides and that must agree as the losses do.
_EXTRA = {
    "total norm": re.compile(r"^rank (\d+) step (\d+) total norm \w+ (-?\d+\.\d+)$", re.M),
    "checksum": re.compile(r"^rank (\d+)() full state dict: .*, checksum (-?\d+\.\d+)$", re.M),
}
_SNIPPET = re.compile(r"migrate_(\w+?)_fsdp([12])\.py")
_REF = re.compile(r"<([\w-]+)>`")


def table_rows(text: str) -> list[list[str]]:
    """The cells of each body row of the first table after the table's label."""
    lines = text[text.index(TABLE_LABEL):].splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("|"))
    rows = []
    for line in lines[start + 2:]:  # header and separator
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip().strip("|").split(" | ")])
    return rows


def verdict(cell: str, language: str) -> tuple[str, float]:
    for kind, pattern in VERDICTS[language]:
        found = re.fullmatch(pattern, cell)
        if found:
            return kind, float(found.group("tol")) if kind == "within" else 0.0
    raise AssertionError(f"{language} table: unknown verdict {cell!r}")


def values(record: Record, pattern: re.Pattern[str]) -> dict[tuple[int, str], float]:
    """``(rank, step)`` -> value for every line ``pattern`` matches, checking the rank it names."""
    found = {}
    for rank, text in enumerate(record.ranks):
        for printed_rank, step, value in pattern.findall(text):
            assert int(printed_rank) == rank, f"{record.snippet}: rank {rank} printed rank {printed_rank}"
            found[(rank, step)] = float(value)
    return found


def pair_problems(first: Record, second: Record, tolerance: float = 0.0) -> list[str]:
    """Where the two records' losses (and shared extra values) differ by more than ``tolerance``:
    one message per rank and step, naming both snippets."""
    problems = []
    checks = {"loss": _LOSS, **_EXTRA}
    for what, pattern in checks.items():
        a, b = values(first, pattern), values(second, pattern)
        if what != "loss" and not (a and b):
            continue  # an extra value only one side prints is not compared
        if not a:
            problems.append(f"{first.snippet}: no '{what}' lines to compare")
        for key in sorted(a.keys() | b.keys()):
            rank, step = key
            where = f"rank {rank}" + (f" step {step}" if step else "")
            if key not in a or key not in b:
                missing = first.snippet if key not in a else second.snippet
                problems.append(f"{missing} prints no {what} for {where}")
            elif abs(a[key] - b[key]) > tolerance:
                problems.append(f"{first.snippet} and {second.snippet} differ at {where}: {what} "
                                f"{a[key]} vs {b[key]} (allowed difference {tolerance})")
    return problems


def records(name: str) -> dict[str, Record]:
    """Variant id -> record, for each variant of ``sharded/NAME`` that has one."""
    spec = read_spec(SNIPPETS / "sharded" / name)
    return {v.id: read_record(spec.record_path(v)) for v in spec.variants
            if spec.record_path(v).exists()}


def cases() -> list[tuple[str, list[str]]]:
    return [(language, row) for language in VERDICTS
            for row in table_rows((DOCS / language / PAGE).read_text(encoding="utf-8"))]


@pytest.mark.parametrize("language", sorted(VERDICTS))
def test_every_row_names_a_pair_embedded_on_the_page(language):
    text = (DOCS / language / PAGE).read_text(encoding="utf-8")
    rows = table_rows(text)
    assert len(rows) >= 9, f"{language}: the table has {len(rows)} rows"
    for fsdp1, fsdp2, last in rows:
        names = [_SNIPPET.search(fsdp1), _SNIPPET.search(fsdp2)]
        assert all(names), f"{language}: row without a migrate_*_fsdpN.py snippet: {fsdp1} | {fsdp2}"
        assert [n.group(2) for n in names] == ["1", "2"], f"{language}: sides swapped: {fsdp1}"
        assert names[0].group(1) == names[1].group(1), f"{language}: not one pair: {fsdp1} | {fsdp2}"
        for cell, name in zip((fsdp1, fsdp2), names):
            assert (SNIPPETS / "sharded" / name.group(0)).is_file(), f"missing {name.group(0)}"
            block = text.find(f"```{{snippet}} sharded/{name.group(0)}\n")
            assert block >= 0, f"{language}: {name.group(0)} is not embedded on the page"
            label = _REF.search(cell)
            assert label, f"{language}: the cell naming {name.group(0)} links nowhere"
            at = text.find(f"({label.group(1)})=\n")
            assert 0 <= at < block, f"{language}: ({label.group(1)})= is not before {name.group(0)}"
            between = text[at + 1:block]
            assert not re.search(r"^\([\w-]+\)=$", between, re.M), (
                f"{language}: {name.group(0)} is not in the section {label.group(1)} links to")
        verdict(last, language)


def test_both_languages_state_the_same_verdicts():
    by_language = {
        language: [(_SNIPPET.search(row[0]).group(1), verdict(row[2], language)) for row in rows]
        for language, rows in ((lang, [r for lg, r in cases() if lg == lang]) for lang in VERDICTS)}
    assert by_language["en"] == by_language["zh"]


@pytest.mark.parametrize("language, row", cases(), ids=lambda v: v if isinstance(v, str) else
                         _SNIPPET.search(v[0]).group(1))
def test_pair_records_agree_as_the_row_says(language, row):
    kind, tolerance = verdict(row[2], language)
    first, second = (_SNIPPET.search(cell).group(0) for cell in row[:2])
    ones, twos = records(first), records(second)
    assert "gloo-cpu-" + str(read_spec(SNIPPETS / "sharded" / first).world_size) in ones, (
        f"{first} has no gloo-cpu record")
    if kind == "raises":
        # FSDP1 stops with an error on every rank and prints no loss; FSDP2 trains, with the
        # losses of FSDP1 without the option
        for variant, one in ones.items():
            if not variant.startswith("gloo-cpu"):
                continue
            for rank, text in enumerate(one.ranks):
                assert "RuntimeError" in text and not _LOSS.search(text), (
                    f"{first} [{variant}] rank {rank}: expected an error and no loss")
            reference = records(REFERENCE)[variant]
            assert not pair_problems(reference, twos[variant]), pair_problems(reference, twos[variant])
        return
    shared = ones.keys() & twos.keys()
    assert shared, f"{first} and {second} share no recorded variant"
    for variant in sorted(shared):
        problems = pair_problems(ones[variant], twos[variant], tolerance)
        assert not problems, f"[{variant}] " + "; ".join(problems)


def _record(name: str, ranks: tuple[str, ...]) -> Record:
    return Record(snippet=f"sharded/{name}", variant="gloo-cpu-2", source_sha256="0" * 64,
                  torch="2.15.0+test", backend="gloo", device="cpu", world_size=len(ranks),
                  command=f"torchrun --standalone --nproc-per-node=2 {name}", ranks=ranks)


def _losses(rank: int, values: list[float]) -> str:
    return "".join(f"rank {rank} step {s} loss {v:.6f}\n" for s, v in enumerate(values))


def test_planted_difference_names_both_snippets_the_rank_and_the_step():
    first = _record("migrate_demo_fsdp1.py", (_losses(0, [1.0, 0.9, 0.8]), _losses(1, [0.7, 0.6, 0.5])))
    second = _record("migrate_demo_fsdp2.py", (_losses(0, [1.0, 0.9, 0.8]), _losses(1, [0.7, 0.6, 0.51])))
    problems = pair_problems(first, second)
    assert len(problems) == 1
    assert "sharded/migrate_demo_fsdp1.py" in problems[0] and "sharded/migrate_demo_fsdp2.py" in problems[0]
    assert "rank 1 step 2" in problems[0]
    assert not pair_problems(first, second, tolerance=0.02)  # a stated tolerance admits it
    assert pair_problems(first, second, tolerance=0.001)


def test_planted_missing_step_is_a_difference():
    first = _record("migrate_demo_fsdp1.py", (_losses(0, [1.0, 0.9]), _losses(1, [0.7, 0.6])))
    second = _record("migrate_demo_fsdp2.py", (_losses(0, [1.0]), _losses(1, [0.7, 0.6])))
    assert pair_problems(first, second) == [
        "sharded/migrate_demo_fsdp2.py prints no loss for rank 0 step 1"]
