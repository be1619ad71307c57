"""No output-shaped text in the pages' prose unless a record holds it: the rule is
``prose_outputs``'s; here it runs on the real pages, and on planted violations to show that each
kind is caught."""

from __future__ import annotations

from pathlib import Path

import pytest

from refsite.lint.prose_outputs import LANGUAGES, check_docs, count_quotations
from tests.support.paths import REPO
from tests.support.records import write_outputs


DOCS = REPO / "docs"
SNIPPETS = REPO / "snippets"


def test_no_unbacked_output_in_prose() -> None:
    problems = check_docs(DOCS, SNIPPETS)
    assert not problems, "\n".join(problems)


def test_quotations_are_pulled_from_records() -> None:
    counts = count_quotations(DOCS)
    assert counts["recorded"] > 0 and counts["measured"] > 0, counts


def _tree(tmp_path: Path, prose: str, output: list[str] | None = None) -> tuple[Path, Path]:
    docs, snippets = tmp_path / "docs", tmp_path / "snippets"
    for lang in LANGUAGES:
        (docs / lang).mkdir(parents=True)
    (snippets / "area").mkdir(parents=True)
    page = f"# T\n\n{prose}\n"
    if output is not None:
        (snippets / "area" / "demo.py").write_text('"""Demo.\n\nRun: python demo.py\n"""\n')
        write_outputs(snippets / "area" / "demo.py", "cpu", ("\n".join(output),))
        page += "\n```{snippet} area/demo.py\n```\n"
    (docs / "en" / "page.md").write_text(page)
    return docs, snippets


@pytest.mark.parametrize(
    ("prose", "kind"),
    [
        ("It fails with `ValueError: step must be greater than zero`.", "output-shaped code"),
        ("The report says `rank 1 failed first`.", "output-shaped code"),
        ("It prints `tensor([0, 0, 1])`.", "output-shaped code"),
        ("Rank 0 gets `[3.0, 6.0]`.", "output-shaped code"),
        ('It fails with "Unable to find address for: eht0".', "quoted message"),
        ("它报错“Connection reset by peer”。", "quoted message"),
        ("It fails with `Connection refused`.", "output-shaped code"),
        ("The loss falls from 7.5351.", "printed number"),
        ("It failed in 3 runs out of 5.", "count of runs"),
        ("| destroy only | 2 of 40 |", "count of runs"),
        ("It happened in about one run in six.", "count of runs"),
        ("在 40 次中 3 次崩溃。", "count of runs"),
        ("大约每六次运行就有一次出错。", "count of runs"),
        ("整个矩阵不到一秒就能跑完。", "duration"),
        ("rank 0 在 0.5 秒后报告。", "duration"),
        ("Rank 0 reports it after 0.5 s.", "duration"),
        ("The matrix takes well under a second.", "duration"),
    ],
)
def test_check_flags_planted_output(tmp_path: Path, prose: str, kind: str) -> None:
    problems = check_docs(*_tree(tmp_path, prose))
    assert len(problems) == 1 and problems[0].startswith("en/page.md:3: " + kind), problems


@pytest.mark.parametrize(
    "prose",
    [
        "Call `torch.arange(1, 4)` or `dist.all_reduce(t, op=dist.ReduceOp.SUM)`.",
        "Run `torchrun --standalone --nproc-per-node=2 train.py` or `make outputs`.",
        "Quoted: {recorded}`area/demo.py: ValueError: step must be greater than zero`.",
        "Measured: {measured}`m.json: results.a` of the runs; see {ref}`the page <label>`.",
        "Timeouts: 30 minutes by default.",
    ],
)
def test_check_accepts_code_roles_and_allowed(tmp_path: Path, prose: str) -> None:
    assert check_docs(*_tree(tmp_path, prose)) == []


def test_check_accepts_text_recorded_on_the_same_page(tmp_path: Path) -> None:
    prose = "It fails with `ValueError: step must be greater than zero`."
    output = ["ValueError: step must be greater than zero"]
    assert check_docs(*_tree(tmp_path, prose, output)) == []
    assert check_docs(*_tree(tmp_path / "other", prose, ["something else"])) != []
