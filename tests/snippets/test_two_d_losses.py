"""The 2-D (FSDP2 + tensor/sequence/loss parallel) example trains like one process: every rank's
loss at every step equals the loss of the same model trained on the full batch in one process,
within LOSS_TOLERANCE (docs/en/sharded/tensor_parallel_more.md, "2-D: FSDP2 with sequence and loss
parallel")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from refsite.snippets.records import read_record
from tests.support.paths import REPO

RECORD = REPO / "snippets" / "sharded" / "fsdp_tp_sequence_2d.gloo-cpu-4.out.json"

#: float32 losses near 2, printed with 6 decimals: the sharded run sums in another order
#: (reduce-scatters, all-gathers, a sharded log-sum-exp), which moves a float32 value by a few
#: units in its 7th significant digit, and each printed value is rounded by up to 5e-7 more.
#: 1e-5 leaves room for that over three steps, and is far below a real change (a wrong gradient
#: average or a missing shard moves the loss in the 2nd or 3rd decimal).
LOSS_TOLERANCE = 1e-5

_RANK_LINE = re.compile(r"^rank (\d+) step (\d+) loss (-?\d+\.\d+)$", re.M)
_REFERENCE_LINE = re.compile(r"^reference step (\d+) loss (-?\d+\.\d+)$", re.M)


def loss_problems(ranks: tuple[str, ...]) -> list[str]:
    """Each (rank, step) whose loss is missing or differs from the reference's."""
    reference = {int(s): float(x) for s, x in _REFERENCE_LINE.findall("".join(ranks))}
    per_rank = [{int(s): float(x) for r, s, x in _RANK_LINE.findall(output) if int(r) == rank}
                for rank, output in enumerate(ranks)]
    steps = sorted(set(reference).union(*per_rank))
    if not steps:
        return ["no loss printed"]
    problems = [f"reference step {step}: no loss printed" for step in steps if step not in reference]
    for rank, losses in enumerate(per_rank):
        for step in steps:
            expected = reference.get(step)
            if step not in losses:
                problems.append(f"rank {rank} step {step}: no loss printed")
            elif expected is not None and abs(losses[step] - expected) > LOSS_TOLERANCE:
                problems.append(f"rank {rank} step {step}: loss {losses[step]:.6f},"
                                f" reference {expected:.6f}")
    return problems


def test_every_rank_matches_the_reference():
    record = read_record(RECORD)
    assert record.world_size == 4
    assert loss_problems(record.ranks) == []


def test_a_changed_loss_is_named(tmp_path: Path):
    text = RECORD.read_text(encoding="utf-8")
    line = re.search(r"rank 2 step 1 loss (\d+\.\d+)", text)
    assert line, "rank 2 prints no loss for step 1"
    planted = f"rank 2 step 1 loss {float(line.group(1)) + 0.001:.6f}"
    changed = tmp_path / RECORD.name
    changed.write_text(text.replace(line.group(0), planted), encoding="utf-8")
    problems = loss_problems(read_record(changed).ranks)
    assert len(problems) == 1
    assert problems[0].startswith("rank 2 step 1: loss ")


@pytest.mark.parametrize("missing", ["reference step 0 loss", "rank 3 step 2 loss"])
def test_a_missing_line_is_named(tmp_path: Path, missing: str):
    text = RECORD.read_text(encoding="utf-8")
    changed = tmp_path / RECORD.name
    changed.write_text(text.replace(missing, "dropped"), encoding="utf-8")
    problems = loss_problems(read_record(changed).ranks)
    expected = ("rank 3 step 2: no loss printed" if missing.startswith("rank")
                else "reference step 0: no loss printed")
    assert problems == [expected]
