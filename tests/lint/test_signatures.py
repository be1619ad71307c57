"""Every ```{signature}``` block on the site matches the installed (pinned) torch.

The doc build never imports torch; this test does, and compares. What a block may hold and
how it is read: ``signature_pages``; where the real parameter lists come from:
``signature_sources``; what is compared: ``signature_check``. The tests run the check on the
real pages, and on planted mistakes to show that it can fail.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from refsite.lint.signature_check import check_docs
from refsite.signature_pages import LANGUAGES, page_entries
from refsite.lint.signature_sources import BINDINGS
from tests.support.paths import DOCS


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
