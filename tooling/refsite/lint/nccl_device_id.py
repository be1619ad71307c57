"""A snippet that can run on NCCL binds its default group to its GPU: every ``init_process_group``
passes ``device_id``. Without it, ``barrier()`` on NCCL warns ("using the device under current
context") and falls back to the current device; a rank's warning fails its GPU variant.

``tests/lint/test_nccl_device_id.py`` runs :func:`check_snippet` on every snippet and the
functions below on planted sources; ``python -m refsite.lint.nccl_device_id`` checks the
checkout's snippets.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

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


def check_snippet(path: Path, snippets: Path) -> list[str]:
    """The ``init_process_group`` calls without ``device_id`` of the snippet at ``path`` (under
    the folder ``snippets``) if it can run on NCCL and is not :data:`ALLOWED`, one finding each."""
    source = path.read_text(encoding="utf-8")
    rel = path.relative_to(snippets).as_posix()
    lines = inits_without_device_id(source) if runs_on_nccl(source) and rel not in ALLOWED else []
    return [f"snippets/{rel}:{line}: init_process_group without device_id; {FIX}" for line in lines]


def check(snippets: Path) -> list[str]:
    """Findings in every snippet under ``snippets``."""
    return [finding for path in sorted(snippets.rglob("*.py")) for finding in check_snippet(path, snippets)]


def main(argv: list[str] | None = None) -> int:
    from refsite import project
    problems = check(project.root() / "snippets")
    print("\n".join(problems) or "every snippet that can run on NCCL passes device_id")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
