"""The layout ``make doctest-slurm`` gives each variant (:mod:`refsite.commands.slurm.plan`): one
node while a node holds the variant, several nodes with the same number of ranks each when it
does not, torchrun's static rendezvous with ``--node-rank=$SLURM_NODEID`` across nodes, the
time limit from the snippet's timeout, and the example scripts the page shows being the
planner's own output. No Slurm needed (the end-to-end runs are tests/harness/test_doctest_slurm.py)."""

from __future__ import annotations

import pytest

from refsite import snippets
from refsite.commands.slurm import examples as slurm_examples, plan as slurm_plan
from refsite.commands.slurm.plan import NodeShape, PlanError
from tests.support.paths import REPO


def variant(rel: str, variant_id: str) -> tuple[snippets.Spec, snippets.Variant]:
    spec = snippets.read_spec(REPO / "snippets" / rel)
    return spec, next(v for v in spec.variants if v.id == variant_id)


def layout(rel: str, variant_id: str, node: NodeShape, **kwargs) -> tuple[int, int, int]:
    job = slurm_plan.plan(*variant(rel, variant_id), rel, node, **kwargs)
    return job.nodes, job.ranks_per_node, job.gpus_per_node


@pytest.mark.parametrize(("rel", "variant_id", "node", "expected"), [
    # one node holds it: every rank there, one GPU per NCCL rank, shared by gloo-cuda ranks
    ("distributed/all_reduce.py", "nccl-cuda-2", NodeShape(64, 8), (1, 2, 2)),
    ("distributed/all_reduce.py", "gloo-cuda-2", NodeShape(64, 8), (1, 2, 1)),
    ("distributed/new_group.py", "nccl-cuda-4", NodeShape(64, 4), (1, 4, 4)),
    # more GPUs than a node has: the ranks spread, the same number on each node
    ("distributed/new_group.py", "nccl-cuda-4", NodeShape(32, 2), (2, 2, 2)),
    ("distributed/new_group.py", "nccl-cuda-4", NodeShape(32, 1), (4, 1, 1)),
    ("distributed/new_group.py", "nccl-cuda-4", NodeShape(32, 3), (2, 2, 2)),
    # CPU variants stay on one node unless capped
    ("distributed/all_reduce.py", "gloo-cpu-2", NodeShape(2, 0), (1, 2, 0)),
    ("distributed/all_reduce.py", "gloo-cpu-2", NodeShape(1, 0), (1, 2, 0)),
    ("tensors/device.py", "cuda", NodeShape(8, 1), (1, 1, 1)),
])
def test_a_variant_gets_the_nodes_and_gpus_it_needs(rel, variant_id, node, expected) -> None:
    assert layout(rel, variant_id, node) == expected


def test_ranks_per_node_caps_cpu_variants_too() -> None:
    assert layout("distributed/all_reduce.py", "gloo-cpu-2", NodeShape(2, 0), ranks_per_node=1) == (2, 1, 0)


def test_what_no_node_can_hold_is_refused_with_the_reason() -> None:
    with pytest.raises(PlanError, match="ranks that share a GPU cannot be spread"):
        slurm_plan.plan(*variant("distributed/all_reduce.py", "gloo-cuda-2"), "x", NodeShape(8, 0))
    spec, two_gpus = next((s, v) for s, v in _python_variants() if v.gpus == 2)
    with pytest.raises(PlanError, match="needs 2 GPUs in one process; a node has 1"):
        slurm_plan.plan(spec, two_gpus, "x", NodeShape(8, 1))


def _python_variants():
    for path in snippets.snippet_paths(REPO / "snippets"):
        spec = snippets.read_spec(path)
        if not spec.torchrun:
            yield from ((spec, v) for v in spec.variants)


def test_the_time_limit_is_the_timeout_plus_the_overhead_in_minutes() -> None:
    spec, cpu = variant("distributed/all_reduce.py", "gloo-cpu-2")
    default = slurm_plan.plan(spec, cpu, "x", NodeShape(2, 0))
    assert default.time_min == -(-(120 + slurm_plan.JOB_OVERHEAD_S) // 60)  # copied-alone default
    assert slurm_plan.plan(spec, cpu, "x", NodeShape(2, 0), timeout=600).time_min == 11


def test_a_multi_node_launch_uses_the_static_rendezvous_and_one_log_folder_per_node() -> None:
    spec, nccl = variant("distributed/new_group.py", "nccl-cuda-4")
    job = slurm_plan.plan(spec, nccl, "distributed/new_group.py", NodeShape(32, 2), partition="gpu")
    command = slurm_plan.launch_command(job, "/venv/bin/python")
    assert "--standalone" not in command and "--nnodes=2 --node-rank=$SLURM_NODEID --nproc-per-node=2" in command
    assert "--log-dir=logs/node$SLURM_NODEID" in command and command.endswith(" new_group.py")
    script = slurm_plan.batch_script(job, "/venv/bin/python")
    for line in ("#SBATCH --nodes=2", "#SBATCH --gpus-per-node=2", "#SBATCH --partition=gpu",
                 "export BACKEND=nccl DEVICE=cuda", "export MASTER_ADDR=$(scontrol show hostnames"):
        assert line in script, script
    single = slurm_plan.plan(spec, nccl, "x", NodeShape(32, 8))
    assert "--standalone --nproc-per-node=4" in slurm_plan.launch_command(single, "python")
    assert "MASTER_ADDR" not in slurm_plan.batch_script(single, "python")


def test_the_example_scripts_on_the_page_are_what_the_planner_writes() -> None:
    folder = REPO / slurm_examples.FOLDER
    for name, text in slurm_examples.scripts(REPO).items():
        assert (folder / name).exists() and (folder / name).read_text() == text, (
            f"{folder / name} is not what the planner writes now; run: "
            f".venv/bin/python -m refsite.commands.slurm.examples")
