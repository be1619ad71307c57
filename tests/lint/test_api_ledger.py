"""The API ledger (``docs/ledger/``) is true to the installed torch, the snippets and the pages;
planted checkouts show that each kind of drift fails with a message naming the name and the fix."""

from __future__ import annotations

import shutil
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
{head}
[entries]
"""


def _checkout(tmp_path: Path, ns: str, names_from: str, entries: str,
              snippets: dict[str, str], pages: dict[str, str], head: str = "") -> list[ledger.Namespace]:
    (tmp_path / "docs" / "ledger").mkdir(parents=True)
    (tmp_path / "docs" / "ledger" / "planted.toml").write_text(
        HEADER.format(ns=ns, names_from=names_from, head=head) + textwrap.dedent(entries), encoding="utf-8")
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


LINEAR = ('"""nn.Linear and nn.Bilinear.\n\nRun: python linear.py\n"""\nimport torch\n'
          'print(torch.nn.Linear(2, 1).weight.shape, torch.nn.Bilinear(2, 2, 1).weight.shape)\n')


def test_an_alias_that_is_its_target_under_another_path_may_be_used(tmp_path: Path) -> None:
    # torch.nn's "Aliases" section lists torch.nn.modules.linear.Linear, which is torch.nn.Linear:
    # a snippet that uses one uses both. An alias that is another object is still refused if used.
    namespaces = _checkout(tmp_path, "torch.nn.modules", "reference", """\
        "linear.Linear" = { kind = "class", page = "tensors/p", snippets = ["tensors/linear.py"] }
        Linear = { kind = "class", reason = "alias", of = "torch.nn.modules.linear.Linear" }
        Bilinear = { kind = "class", reason = "alias", of = "torch.nn.modules.linear.Linear" }
        """, {"tensors/linear.py": LINEAR}, {"tensors/p.md": "# P\n\n```{snippet} tensors/linear.py\n```\n"})
    found = check(tmp_path, namespaces)
    assert len(found) == 1, found
    assert "torch.nn.modules.Bilinear: reason 'alias', but snippets/tensors/linear.py use(s) it" in found[0]


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


SAMPLER = "torch.utils.data.distributed.DistributedSampler"
EPOCH_SNIPPET = ('"""set_epoch.\n\nRun: python s.py\n"""\nimport torch\n'
                 'from torch.utils.data.distributed import DistributedSampler\n'
                 'sampler = DistributedSampler(range(4), num_replicas=2, rank=0)\n{call}\n')
EPOCH_PAGE = "# P\n\nCall `sampler.set_epoch(epoch)` every epoch.\n\n```{snippet} tensors/s.py\n```\n"


def test_a_class_members_file_lists_every_member_and_a_planted_non_call_fails(tmp_path: Path) -> None:
    # A "members" file: every public member of the class less the base's; a shown member's
    # snippet must call it (x.set_epoch(...)): one that only names the class does not.
    head = 'inherited_from = "torch.utils.data.Sampler"\n'
    namespaces = _checkout(tmp_path, SAMPLER, "members", "", {
        "tensors/s.py": EPOCH_SNIPPET.format(call="sampler.set_epoch(1)")}, {"tensors/p.md": EPOCH_PAGE}, head)
    found = check(tmp_path, namespaces)
    assert [f.split("planted.toml: ")[1] for f in found] == [
        f"{SAMPLER}.set_epoch is public in the installed torch (the class's public members) but has "
        "no entry; add one (python -m refsite.lint.api_ledger --draft prints it)"]
    assert draft(tmp_path, namespaces)[namespaces[0].file] == [
        'set_epoch = { kind = "method", page = "tensors/p", snippets = ["tensors/s.py"] }']
    shutil.rmtree(tmp_path / "docs")
    namespaces = _checkout(tmp_path, SAMPLER, "members", """\
        set_epoch = { kind = "method", page = "tensors/p", snippets = ["tensors/t.py"] }
        """, {"tensors/t.py": EPOCH_SNIPPET.format(call="print(type(sampler).__name__)")},
        {"tensors/p.md": EPOCH_PAGE.replace("s.py", "t.py")}, head)
    found = check(tmp_path, namespaces)
    assert len(found) == 1 and f"snippets/tensors/t.py does not use {SAMPLER}.set_epoch" in found[0], found


def test_a_members_cut_keeps_method_forms_and_also_and_refuses_a_missing_also(tmp_path: Path) -> None:
    head = 'method_forms_of = "torch"\nalso = ["view", "no_such_member"]\n'
    _checkout(tmp_path, "torch.Tensor", "members", "", {}, {}, head)
    (tmp_path / "docs" / "ledger" / "a-torch.toml").write_text(
        HEADER.format(ns="torch", names_from="reference", head="")
        + 'where = { kind = "function", reason = "not-yet" }\n', encoding="utf-8")
    namespaces = ledger.read(tmp_path / "docs" / "ledger")
    found = check(tmp_path, namespaces)
    missing = sorted(f.split(" is public")[0].rsplit(" ", 1)[1] for f in found if " is public " in f)
    assert missing == ["torch.Tensor.view", "torch.Tensor.where"], found
    assert any("`also` names no_such_member" in f for f in found), found


def test_the_method_form_and_subscripts_count_as_uses() -> None:
    found = uses.read("import torch\nx = torch.ones(4)\ny = x.reshape(2, 2)\nz = mesh['dp']\n")
    assert found.uses("torch.Tensor.reshape", member=True)
    assert found.uses("torch.distributed.device_mesh.DeviceMesh.__getitem__", member=True)
    assert not found.uses("torch.Tensor.view", member=True)
    assert not uses.read("import torch\ntorch.reshape(x, (2, 2))\n").uses("torch.Tensor.reshape", member=True)


SIGNED_PAGE = "# Q\n\n```{signature}\ntorch.where(condition, input, other, *, out=None) -> Tensor\n```\n"


def test_an_entry_away_from_its_signature_block_fails(tmp_path: Path) -> None:
    # The index must land where the page declares the signature, not on another page whose
    # snippet happens to call the function (torch.reshape was sent to tensors/select so).
    namespaces = _checkout(tmp_path, "torch", "reference", """\
        where = { kind = "function", page = "tensors/p", snippets = ["tensors/where.py"] }
        """, {"tensors/where.py": WHERE}, {"tensors/p.md": PAGE, "tensors/q.md": SIGNED_PAGE})
    found = check(tmp_path, namespaces)
    assert [f.split(": ", 2)[2] for f in found] == [
        f"docs/{lang}/tensors/q declare(s) its signature, but the entry's page is tensors/p; give the "
        "page with the signature (and a snippet it embeds that uses the name)" for lang in ("en", "zh")]
    (tmp_path / "docs" / "en" / "tensors" / "q.md").write_text("# Q\n", encoding="utf-8")
    (tmp_path / "docs" / "zh" / "tensors" / "q.md").write_text("# Q\n", encoding="utf-8")
    assert check(tmp_path, namespaces) == []


def test_a_signature_declared_on_a_page_without_a_ledger_entry_fails(tmp_path: Path) -> None:
    # Schedule1F1B.step was declared on sharded/composition with no entry, so no lookup found it.
    namespaces = _checkout(tmp_path, "torch", "reference", """\
        where = { kind = "function", page = "tensors/p", snippets = ["tensors/where.py"] }
        """, {"tensors/where.py": WHERE},
        {"tensors/p.md": PAGE + "\n```{signature}\ntorch.nonzero(input, *, out=None, as_tuple=False) -> Tensor\n```\n"})
    assert check(tmp_path, namespaces) == [
        f"docs/{lang}/tensors/p.md declares the signature of torch.nonzero, which has no ledger entry; "
        "add one to the file of its namespace or class (shown there, or with a reason)" for lang in ("en", "zh")]


def test_superseded_by_must_name_a_shown_entry(tmp_path: Path) -> None:
    entries = """\
        where = { kind = "function", page = "tensors/p", snippets = ["tensors/where.py"] }
        """
    namespaces = _checkout(tmp_path, "torch", "reference", entries, {"tensors/where.py": WHERE},
                           {"tensors/p.md": PAGE}, head='superseded_by = "torch.nonzero"\n')
    assert check(tmp_path, namespaces) == [
        f"{tmp_path / 'docs/ledger/planted.toml'}: superseded_by names torch.nonzero, which is not a shown entry; "
        "name the shown entry torch recommends instead"]
    shutil.rmtree(tmp_path / "docs" / "ledger")
    with pytest.raises(LedgerError, match="superseded_by must be the full name"):
        _checkout(tmp_path, "torch", "reference", entries, {}, {}, head='superseded_by = "nonzero"\n')


def test_one_object_under_two_names_has_one_home(tmp_path: Path) -> None:
    # torch.utils.data.distributed.DistributedSampler was anchored in "Distributed evaluation"
    # while torch.utils.data.DistributedSampler, the same class, had its own section elsewhere.
    sampler = ('"""Samplers.\n\nRun: python s.py\n"""\nimport torch.utils.data as data\n'
               "from torch.utils.data.distributed import DistributedSampler\n"
               "print(data.DistributedSampler, DistributedSampler)\n")
    pages = {f"parallel/{p}.md": "# P\n\n```{snippet} parallel/s.py\n```\n" for p in ("a", "b")}
    _checkout(tmp_path, "torch.utils.data.distributed", "__all__", """\
        DistributedSampler = { kind = "class", page = "parallel/a", snippets = ["parallel/s.py"] }
        """, {"parallel/s.py": sampler}, pages)
    other = (tmp_path / "docs" / "ledger" / "planted.toml").read_text(encoding="utf-8")
    (tmp_path / "docs" / "ledger" / "other.toml").write_text(other.replace(
        'namespace = "torch.utils.data.distributed"', 'namespace = "torch.utils.data"').replace(
        "parallel/a", "parallel/b"), encoding="utf-8")
    found = [f for f in check(tmp_path, ledger.read(tmp_path / "docs" / "ledger")) if "same object" in f]
    assert len(found) == 1, found
    assert ("is the same object as" in found[0] and "parallel/a" in found[0] and "parallel/b" in found[0]
            and "give both entries the page of its own section" in found[0])
    (tmp_path / "docs" / "ledger" / "other.toml").write_text(other.replace(
        'namespace = "torch.utils.data.distributed"', 'namespace = "torch.utils.data"'), encoding="utf-8")
    assert not [f for f in check(tmp_path, ledger.read(tmp_path / "docs" / "ledger")) if "same object" in f]


def test_instance_attributes_are_members_the_class_source_assigns(tmp_path: Path) -> None:
    # Optimizer.__init__ sets self.param_groups and self.state: dir(Optimizer) misses both, the
    # file names them, and an entry is then required; a name the source never assigns is gone.
    head = 'instance_attributes = ["param_groups", "no_such_attribute"]\n'
    namespaces = _checkout(tmp_path, "torch.optim.Optimizer", "members", """\
        no_such_attribute = { kind = "attribute", reason = "not-yet" }
        """, {}, {}, head)
    found = [f.split("planted.toml: ")[1] for f in check(tmp_path, namespaces)]
    assert any(f.startswith("torch.optim.Optimizer.param_groups is public") for f in found), found
    assert any(f.startswith("torch.optim.Optimizer.no_such_attribute is listed but") for f in found), found
    assert 'param_groups = { kind = "attribute", reason = "not-yet" }' in draft(tmp_path, namespaces)[
        namespaces[0].file]
    with pytest.raises(LedgerError, match="instance attribute; write kind"):
        _checkout(tmp_path / "b", "torch.optim.Optimizer", "members", """\
            param_groups = { kind = "property", reason = "not-yet" }
            """, {}, {}, 'instance_attributes = ["param_groups"]\n')


def test_a_not_yet_entry_in_a_complete_file_fails(tmp_path: Path) -> None:
    # Issues 56 and 57: the files they list hold no not-yet; `complete = true` holds them to it.
    with pytest.raises(LedgerError) as caught:
        _checkout(tmp_path, "torch", "reference", """\
            where = { kind = "function", reason = "not-yet" }
            nonzero = { kind = "function", reason = "not-yet" }
            """, {}, {}, head="complete = true\n")
    assert "complete = true, but where, nonzero are not-yet; show them" in str(caught.value)


def test_the_complete_files_are_those_with_nothing_left() -> None:
    # Every ledger file with no not-yet entry says so, so that a new not-yet in it fails.
    for path in sorted((REPO / ledger.DEFAULT_DIR).glob("*.toml")):
        text = path.read_text(encoding="utf-8")
        assert ('reason = "not-yet"' in text) != ("\ncomplete = true\n" in text), (
            f"{path.name}: write complete = true once no entry is not-yet (and only then)")
