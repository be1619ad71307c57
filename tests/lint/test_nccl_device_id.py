"""A snippet that can run on NCCL binds its default group to its GPU: every ``init_process_group``
passes ``device_id``. Without it, ``barrier()`` on NCCL warns ("using the device under current
context") and falls back to the current device; a rank's warning fails its GPU variant."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from tests.support.paths import SNIPPETS

#: Snippets (relative to snippets/) whose lesson is an init_process_group without device_id -> why.
ALLOWED: dict[str, str] = {
    "distributed/default_backend.py": "shows init_process_group() with neither backend nor device_id",
}
FIX = ('pass device_id=torch.device("cuda", int(os.environ["LOCAL_RANK"])) on GPUs and None on CPU, '
       "where older releases reject a CPU device (as snippets/parallel/ddp_checkpoint.py does)")


def runs_on_nccl(source: str) -> bool:
    """The source mentions nccl: a ``Variants:`` line with an ``nccl`` variant, or a comment such
    as ``# BACKEND=nccl DEVICE=cuda on GPUs`` that tells the reader to run it so."""
    return "nccl" in source.lower()


def inits_without_device_id(source: str) -> list[int]:
    """Lines of the ``dist.init_process_group(...)`` or ``torch.distributed.init_process_group(...)``
    calls that pass no ``device_id``."""
    return [node.lineno for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "init_process_group"
            and ast.unparse(node.func.value) in ("dist", "torch.distributed")
            and not any(keyword.arg == "device_id" for keyword in node.keywords)]


@pytest.mark.parametrize("path", sorted(SNIPPETS.rglob("*.py")), ids=lambda p: p.relative_to(SNIPPETS).as_posix())
def test_an_nccl_snippet_passes_device_id(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    rel = path.relative_to(SNIPPETS).as_posix()
    lines = inits_without_device_id(source) if runs_on_nccl(source) and rel not in ALLOWED else []
    assert not lines, "\n".join(f"snippets/{rel}:{line}: init_process_group without device_id; {FIX}"
                                for line in lines)


def test_a_planted_init_without_device_id_is_found() -> None:
    assert inits_without_device_id("import torch\ntorch.distributed.init_process_group('nccl')\n") == [2]
    assert inits_without_device_id("dist.init_process_group(backend, device_id=device)\n") == []
    assert runs_on_nccl('"""Doc.\n\nVariants: gloo-cpu, nccl-cuda\n"""\n')
    assert not runs_on_nccl('"""Doc.\n\nVariants: gloo-cpu\n"""\n')
