"""The batch scripts the GPU-runners page shows for ``make doctest-slurm``, written by the
planner itself (:mod:`slurm_plan`), so the page shows what the command submits: a 2-GPU and a
4-GPU NCCL variant on 8-GPU nodes, and the 4-GPU one on nodes with 2 GPUs each (two nodes, the
static rendezvous). A test holds the files to the planner's current output.

Usage: python -m refsite.commands.slurm.examples   (rewrites docs/ci/slurm/*.sbatch)
"""

from __future__ import annotations

import sys
from pathlib import Path

from refsite import project, snippets
from refsite.commands.slurm import plan as slurm_plan

#: The Python the example jobs run: a shared virtual environment, as a cluster would have.
PYTHON = "/shared/torch-verified-reference/.venv/bin/python"
#: (snippet, variant, node shape, file name): the examples the page shows.
EXAMPLES = (
    ("distributed/all_reduce.py", "nccl-cuda-2", slurm_plan.NodeShape(cpus=64, gpus=8), "nccl-cuda-2.sbatch"),
    ("distributed/new_group.py", "nccl-cuda-4", slurm_plan.NodeShape(cpus=64, gpus=8), "nccl-cuda-4.sbatch"),
    ("distributed/new_group.py", "nccl-cuda-4", slurm_plan.NodeShape(cpus=32, gpus=2), "nccl-cuda-4-two-nodes.sbatch"),
)
FOLDER = Path("docs", "ci", "slurm")


def scripts(root: Path) -> dict[str, str]:
    """File name -> batch script, as the planner writes them now."""
    found = {}
    for rel, variant_id, node, name in EXAMPLES:
        spec = snippets.read_spec(root / "snippets" / rel)
        variant = next(v for v in spec.variants if v.id == variant_id)
        job = slurm_plan.plan(spec, variant, rel, node, partition="gpu")
        found[name] = slurm_plan.batch_script(job, PYTHON)
    return found


def main() -> int:
    root = project.root()
    folder = root / FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in scripts(root).items():
        (folder / name).write_text(text)
        print(f"wrote {FOLDER / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
