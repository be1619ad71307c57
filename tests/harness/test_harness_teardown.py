"""The teardown rule (``check_teardown``): off unless asked; when on, each way of tearing a
process group down too early fails with a message that says what to do instead."""

from __future__ import annotations

import pytest

from tests.support.harness_cases import run


def test_the_teardown_rule_is_off_unless_asked(forkserver, tmp_path):
    # Users' scripts may end as they like; the project's snippets turn the check on.
    result = run(forkserver, tmp_path, """
        dist.init_process_group("gloo")
        dist.destroy_process_group()
    """)
    assert result.ok, result.report()


def test_destroying_the_group_without_a_barrier_fails(forkserver, tmp_path):
    # Without the barrier, rank 0 once exited while rank 1 was still connecting (1 run in 30).
    result = run(forkserver, tmp_path, """
        dist.init_process_group("gloo")
        dist.destroy_process_group()
    """, check_teardown=True)
    assert not result.ok
    assert "dist.destroy_process_group() was not preceded by dist.barrier()" in result.report()


def test_destroying_the_group_under_a_live_ddp_module_fails(forkserver, tmp_path):
    # Under torchrun this order aborted the process at exit in 2 of 32 runs here (SIGABRT,
    # "terminate called without an active exception"); the harness flags it on every run.
    result = run(forkserver, tmp_path, """
        from torch.nn.parallel import DistributedDataParallel as DDP
        import torch.distributed.nn  # before init: see ranktest.exitcheck
        dist.init_process_group("gloo")
        model = DDP(torch.nn.Linear(2, 1))
        dist.barrier()
        dist.destroy_process_group()
    """, check_teardown=True)
    assert not result.ok
    assert "while a DistributedDataParallel module was still alive; end with: del model" in result.report()


def test_deleting_the_ddp_module_without_a_barrier_fails(forkserver, tmp_path):
    # Deleting first was not enough: 2 of 40 torchrun launches still aborted at exit here,
    # 1 of 40 with a barrier between the deletion and the teardown.
    result = run(forkserver, tmp_path, """
        from torch.nn.parallel import DistributedDataParallel as DDP
        import torch.distributed.nn  # before init: see ranktest.exitcheck
        dist.init_process_group("gloo")
        model = DDP(torch.nn.Linear(2, 1))
        del model
        dist.destroy_process_group()
    """, check_teardown=True)
    assert not result.ok
    assert "was not preceded by dist.barrier() (after deleting any DDP module)" in result.report()


def test_delete_then_barrier_then_destroy_is_clean(forkserver, tmp_path):
    result = run(forkserver, tmp_path, """
        from torch.nn.parallel import DistributedDataParallel as DDP
        import torch.distributed.nn  # before init: see ranktest.exitcheck
        dist.init_process_group("gloo")
        model = DDP(torch.nn.Linear(2, 1))
        del model
        dist.barrier()
        dist.destroy_process_group()
    """, check_teardown=True)
    assert result.ok, result.report()


@pytest.mark.parametrize("kept", [True, False])
def test_a_group_kept_alive_past_destroy_fails(forkserver, tmp_path, kept):
    # A group that outlives destroy_process_group() keeps its gloo worker threads into
    # interpreter shutdown, where they can abort the process (ranktest.exitcheck).
    result = run(forkserver, tmp_path, f"""
        dist.init_process_group("gloo")
        group = dist.new_group()
        dist.all_reduce(torch.ones(1), group=group)
        {"" if kept else "del group"}
        dist.barrier()
        dist.destroy_process_group()
    """, check_teardown=True)
    message = "a process group outlived dist.destroy_process_group() (2 gloo worker thread(s)"
    assert (message in result.report()) == kept, result.report()
    assert result.ok != kept, result.report()


def test_a_group_held_by_a_live_cycle_fails(forkserver, tmp_path):
    # A reference cycle the script still holds: collecting garbage does not free the group.
    result = run(forkserver, tmp_path, """
        dist.init_process_group("gloo")
        group = dist.new_group()
        dist.all_reduce(torch.ones(1), group=group)
        holder = [group]
        holder.append(holder)
        del group
        dist.barrier()
        dist.destroy_process_group()
    """, check_teardown=True)
    assert not result.ok
    assert "a process group outlived dist.destroy_process_group() (2 gloo worker thread(s)" in result.report()


def test_a_mesh_only_a_cycle_refers_to_is_found_by_the_object_scan(forkserver, tmp_path):
    # The mesh's own sub-groups (4 ranks, a 2-D mesh) stay alive in its registry while anything
    # refers to it, here a cycle the script keeps. Only the check's walk over every object finds
    # the mesh and empties its registry; if the walk missed it (objects the forkserver froze,
    # say), the sub-groups' worker threads would still run and this clean script would fail.
    result = run(forkserver, tmp_path, """
        from torch.distributed.device_mesh import init_device_mesh
        dist.init_process_group("gloo")
        mesh = init_device_mesh("cpu", (2, 2), mesh_dim_names=("dp", "tp"))
        dist.all_reduce(torch.ones(1), group=mesh.get_group("tp"))
        class Holder:
            pass
        holder = Holder()
        holder.mesh, holder.me = mesh, holder
        del mesh
        dist.barrier()
        dist.destroy_process_group()
    """, world_size=4, check_teardown=True)
    assert result.ok, result.report()
