"""The API ledger (``docs/ledger/``) is true to the installed torch, the snippets and the pages;
planted checkouts show that each kind of drift fails with a message naming the name and the fix."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from refsite import ledger
from refsite.ledger import LedgerError, uses
from refsite.lint.api_ledger import check
from refsite.lint.api_ledger_draft import draft
from tests.support.paths import REPO

HEADER = """\
namespace = "{ns}"
section = "tensors"
title = {{ en = "T", zh = "T" }}
names_from = "{names_from}"
source = "a planted list"

[entries]
"""


def _checkout(tmp_path: Path, ns: str, names_from: str, entries: str,
              snippets: dict[str, str], pages: dict[str, str]) -> list[ledger.Namespace]:
    (tmp_path / "docs" / "ledger").mkdir(parents=True)
    (tmp_path / "docs" / "ledger" / "planted.toml").write_text(
        HEADER.format(ns=ns, names_from=names_from) + textwrap.dedent(entries), encoding="utf-8")
    for rel, code in snippets.items():
        (tmp_path / "snippets" / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "snippets" / rel).write_text(textwrap.dedent(code), encoding="utf-8")
    for lang in ("en", "zh"):
        for rel, text in pages.items():
            (tmp_path / "docs" / lang / rel).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / "docs" / lang / rel).write_text(text, encoding="utf-8")
    return ledger.read(tmp_path / "docs" / "ledger")


WHERE = '"""torch.where.\n\nRun: python where.py\n"""\nimport torch\nprint(torch.where(torch.tensor([True]), 1, 0))\n'
NONZERO = '"""torch.nonzero.\n\nRun: python where.py\n"""\nimport torch\nprint(torch.nonzero(torch.tensor([1])))\n'
PAGE = "# P\n\n```{snippet} tensors/where.py\n```\n"


def test_the_ledger_is_true() -> None:
    namespaces = ledger.read(REPO / ledger.DEFAULT_DIR)
    assert check(REPO, namespaces) == []


def test_an_unlisted_public_name_fails(tmp_path: Path) -> None:
    namespaces = _checkout(tmp_path, "torch.distributed.algorithms.join", "__all__", """\
        Join = { kind = "class", reason = "not-yet" }
        Joinable = { kind = "class", reason = "not-yet" }
        """, {"tensors/where.py": WHERE}, {})
    found = check(tmp_path, namespaces)
    assert len(found) == 1, found
    assert "torch.distributed.algorithms.join.JoinHook is public in the installed torch" in found[0]
    assert "add one" in found[0]
    assert draft(tmp_path, namespaces)[namespaces[0].file] == [
        'JoinHook = { kind = "class", reason = "not-yet" }']


def test_a_shown_entry_whose_snippet_lacks_the_name_fails(tmp_path: Path) -> None:
    namespaces = _checkout(tmp_path, "torch", "reference", """\
        where = { kind = "function", page = "tensors/p", snippets = ["tensors/where.py"] }
        """, {"tensors/where.py": NONZERO}, {"tensors/p.md": PAGE})
    found = check(tmp_path, namespaces)
    assert len(found) == 1, found
    assert "snippets/tensors/where.py does not use torch.where; name a snippet that does" in found[0]


def test_a_shown_entry_whose_page_does_not_embed_its_snippet_fails(tmp_path: Path) -> None:
    namespaces = _checkout(tmp_path, "torch", "reference", """\
        where = { kind = "function", page = "tensors/p", snippets = ["tensors/where.py"] }
        """, {"tensors/where.py": WHERE}, {"tensors/p.md": "# P\n"})
    found = check(tmp_path, namespaces)
    assert [f.split(": ", 2)[2] for f in found] == [
        f"docs/{lang}/tensors/p.md does not embed tensors/where.py (```{{snippet}} tensors/where.py```); "
        "embed it or name the page that does" for lang in ("en", "zh")]


def test_a_reason_entry_used_by_a_snippet_fails(tmp_path: Path) -> None:
    namespaces = _checkout(tmp_path, "torch", "reference", """\
        where = { kind = "function", reason = "not-yet" }
        """, {"tensors/where.py": WHERE}, {})
    found = check(tmp_path, namespaces)
    assert len(found) == 1, found
    assert "torch.where: reason 'not-yet', but snippets/tensors/where.py use(s) it; make it shown" in found[0]


def test_a_wrong_kind_and_a_removed_name_fail(tmp_path: Path) -> None:
    namespaces = _checkout(tmp_path, "torch.distributed.algorithms.join", "__all__", """\
        Join = { kind = "function", reason = "not-yet" }
        Joinable = { kind = "class", reason = "not-yet" }
        JoinHook = { kind = "class", reason = "not-yet" }
        Gone = { kind = "class", reason = "not-yet" }
        """, {}, {})
    found = "\n".join(check(tmp_path, namespaces))
    assert "Join: kind is 'function' but the object is a class" in found
    assert "Gone is listed but the installed torch no longer has it" in found


@pytest.mark.parametrize("entry, message", [
    ('where = { kind = "function" }', "has no reason, so it must be shown"),
    ('where = { kind = "func", reason = "not-yet" }', "kind 'func' is not one of"),
    ('where = { kind = "function", reason = "maybe" }', "reason 'maybe' is not one of"),
    ('where = { kind = "function", reason = "out-of-scope", why = "no" }', "needs why = { en"),
    ('where = { kind = "function", reason = "alias" }', 'needs of = "<full dotted name>"'),
    ('where = { kind = "function", reason = "alias", of = "torch.cat", via = "x" }', "unknown field(s) via"),
])
def test_a_malformed_entry_is_refused_with_the_fix(tmp_path: Path, entry: str, message: str) -> None:
    with pytest.raises(LedgerError, match="planted.toml: entry 'where'") as raised:
        _checkout(tmp_path, "torch", "reference", entry + "\n", {}, {})
    assert message in str(raised.value)


def test_uses_follows_imports_aliases_and_members() -> None:
    found = uses.read(textwrap.dedent("""\
        import torch
        import torch.distributed as dist
        from torch.distributed.fsdp import fully_shard as shard
        dist.all_reduce(t, op=dist.ReduceOp.SUM)
        shard(model)
        t.bernoulli_()
        """))
    assert {"torch.distributed.all_reduce", "torch.distributed.ReduceOp.SUM",
            "torch.distributed.ReduceOp", "torch.distributed.fsdp.fully_shard"} <= found.dotted
    assert found.uses("torch.Tensor.bernoulli_", member=True)
    assert not found.uses("torch.Tensor.bernoulli_", member=False)
    assert not found.uses("torch.distributed.all_gather", member=False)


def test_a_shown_entry_whose_snippets_all_need_gpus_fails(tmp_path: Path) -> None:
    gpu_only = WHERE.replace("Run: python where.py\n", "Run: python where.py\nVariants: cuda\n")
    namespaces = _checkout(tmp_path, "torch", "reference", """\
        where = { kind = "function", page = "tensors/p", snippets = ["tensors/where.py"] }
        """, {"tensors/where.py": gpu_only}, {"tensors/p.md": PAGE})
    found = check(tmp_path, namespaces)
    assert len(found) == 1, found
    assert "every snippet it names needs GPUs" in found[0] and 'reason = "hardware"' in found[0]
