"""A snippet that can run on NCCL binds its default group to its GPU
(:mod:`refsite.lint.nccl_device_id`): every snippet, and planted calls found."""

from __future__ import annotations

from pathlib import Path

import pytest

from refsite.lint.nccl_device_id import check_snippet, inits_without_device_id, runs_on_nccl
from tests.support.paths import SNIPPETS


@pytest.mark.parametrize("path", sorted(SNIPPETS.rglob("*.py")), ids=lambda p: p.relative_to(SNIPPETS).as_posix())
def test_an_nccl_snippet_passes_device_id(path: Path) -> None:
    found = check_snippet(path, SNIPPETS)
    assert not found, "\n".join(found)


def test_a_planted_init_without_device_id_is_found() -> None:
    assert inits_without_device_id("import torch\ntorch.distributed.init_process_group('nccl')\n") == [2]
    assert inits_without_device_id("dist.init_process_group(backend, device_id=device)\n") == []
    assert runs_on_nccl('"""Doc.\n\nVariants: gloo-cpu, nccl-cuda\n"""\n')
    assert not runs_on_nccl('"""Doc.\n\nVariants: gloo-cpu\n"""\n')


def test_a_planted_snippet_is_named_with_its_line(tmp_path: Path) -> None:
    (tmp_path / "area").mkdir()
    (tmp_path / "area" / "demo.py").write_text('"""Variants: gloo-cpu, nccl-cuda"""\nimport torch.distributed as dist\n'
                                               'dist.init_process_group("nccl")\n')
    found = check_snippet(tmp_path / "area" / "demo.py", tmp_path)
    assert len(found) == 1 and found[0].startswith("snippets/area/demo.py:3: init_process_group without device_id"), found
