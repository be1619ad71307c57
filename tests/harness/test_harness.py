"""The harness fails loudly, fast and clean: each failure mode of a rank, asserted."""

from __future__ import annotations

import os
import select
import signal
import threading
import time

import pytest

from tests.support.harness_cases import FAST_S, pids_in, run
from ranktest import RankFailure
from ranktest._procs import state


def test_clean_run_captures_each_rank_in_order(forkserver, tmp_path):
    result = run(forkserver, tmp_path, """
        dist.init_process_group("gloo")
        t = torch.tensor([rank + 1])
        dist.all_reduce(t)
        print(f"rank {rank} of {dist.get_world_size()}: {t.item()}")
        os.write(2, b"")  # nothing on stderr
        dist.barrier()
        dist.destroy_process_group()
    """, world_size=3)
    assert result.ok, result.report()
    assert [r.stdout for r in result.ranks] == [f"rank {r} of 3: 6\n" for r in range(3)]
    assert all(r.stderr == "" for r in result.ranks)


def test_rank_that_raises_is_named_with_its_traceback(forkserver, tmp_path):
    result = run(forkserver, tmp_path, """
        dist.init_process_group("gloo")
        if rank == 1:
            raise ValueError("boom on rank 1")
        dist.barrier()  # rank 0 waits for a peer that is gone
        dist.destroy_process_group()
    """)
    assert not result.ok
    assert result.first_failure == 1
    assert result.elapsed < FAST_S
    with pytest.raises(RankFailure) as excinfo:
        result.check()
    report = str(excinfo.value)
    assert "rank 1 failed first (exit code 1)" in report
    assert "ValueError: boom on rank 1" in report
    assert 'case.py", line' in report  # the traceback points into the script


@pytest.mark.parametrize("how, expected", [
    ('raise ValueError("boom on rank 1")', "exit code 1"),
    ("os._exit(3)", "exit code 3"),
], ids=["raises", "exits"])
def test_first_failure_is_named_even_when_the_watch_sees_both_exits_at_once(
        forkserver, tmp_path, how, expected):
    """Rank 1 fails; rank 0 fails only because rank 1 is gone. The server is stopped until both
    have exited, so it sees the two exits together (as on a busy machine): the order it sees
    them in cannot tell cause from echo; when each failure happened can."""
    pid_dir, ready, go = tmp_path / "pids", tmp_path / "ready", tmp_path / "go"
    outcome = {}
    thread = threading.Thread(target=lambda: outcome.update(result=run(forkserver, tmp_path, f"""
        dist.init_process_group("gloo")
        dist.barrier()
        if rank == 1:
            pathlib.Path({str(ready)!r}).touch()
            while not pathlib.Path({str(go)!r}).exists():
                time.sleep(0.01)
            {how}
        dist.barrier()  # fails once rank 1 is gone
        dist.destroy_process_group()
    """)))
    thread.start()
    server_pid = forkserver._proc.pid
    pidfds = []
    try:
        deadline = time.monotonic() + 30
        while not ready.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert ready.exists(), "rank 1 never got ready"
        os.kill(server_pid, signal.SIGSTOP)
        while state(server_pid) != "T" and time.monotonic() < deadline:
            time.sleep(0.001)
        exits = select.poll()  # a pidfd is readable once the whole process has exited
        pidfds = [os.pidfd_open(pid) for pid in pids_in(pid_dir)]
        for fd in pidfds:
            exits.register(fd, select.POLLIN)
        go.touch()
        while len(exits.poll(0)) < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert len(exits.poll(0)) == 2, "the ranks did not exit"
    finally:
        os.kill(server_pid, signal.SIGCONT)
        for fd in pidfds:
            os.close(fd)
        thread.join(timeout=60)
    result = outcome["result"]
    assert result.ranks[0].returncode == 1, result.report()
    assert result.first_failure == 1, result.report()
    assert f"rank 1 failed first ({expected})" in result.report()


@pytest.mark.parametrize("how, expected", [
    ("os._exit(3)", "exit code 3"),
    ("os.kill(os.getpid(), signal.SIGKILL)", "killed by signal SIGKILL"),
    ("os.kill(os.getpid(), signal.SIGSEGV)", "killed by signal SIGSEGV"),
])
def test_rank_that_dies_hard_is_named_with_its_exit(forkserver, tmp_path, how, expected):
    result = run(forkserver, tmp_path, f"""
        import signal
        dist.init_process_group("gloo")
        print("last words before dying", flush=False)
        os.write(1, b"written straight to the descriptor\\n")
        if rank == 0:
            {how}
        dist.barrier()
        dist.destroy_process_group()
    """)
    assert result.first_failure == 0
    assert result.elapsed < FAST_S
    assert f"rank 0 failed first ({expected})" in result.report()
    # Output from just before the crash is kept, Python's and the descriptor's alike.
    assert "last words before dying" in result.ranks[0].stdout
    assert "written straight to the descriptor" in result.ranks[0].stdout


def test_rank_that_skips_a_collective_is_stopped_with_stacks(forkserver, tmp_path):
    result = run(forkserver, tmp_path, """
        dist.init_process_group("gloo")
        if rank == 0:
            dist.all_reduce(torch.ones(1))  # rank 1 never joins
        time.sleep(60) if rank == 1 else None
        dist.destroy_process_group()
    """, timeout=3)
    assert result.timed_out
    assert result.elapsed < 3 + FAST_S
    report = result.report()
    assert "timed out after 3 s; rank(s) 0, 1 still running" in report
    # Each running rank's Python stack shows where it was stuck.
    assert "in <module>" in result.ranks[0].stderr and "all_reduce" in result.ranks[0].stderr
    assert "case.py" in result.ranks[1].stderr


def test_descendants_of_a_rank_are_killed_too(forkserver, tmp_path):
    result = run(forkserver, tmp_path, """
        import subprocess
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
        pathlib.Path(os.environ["PID_DIR"], f"child{rank}").write_text(str(child.pid))
        time.sleep(300)
    """, timeout=2)
    assert result.timed_out
    children = sorted(p.name for p in (tmp_path / "pids").glob("child*"))
    assert children == ["child0", "child1"], "both ranks should have started a child"
    # run() asserted that neither the ranks nor their children survive.


def test_script_that_forgets_destroy_process_group_fails(forkserver, tmp_path):
    result = run(forkserver, tmp_path, """
        dist.init_process_group("gloo")
        dist.barrier()
    """, check_teardown=True)
    assert not result.ok
    assert "without calling dist.destroy_process_group()" in result.ranks[0].stderr


def test_deprecation_warnings_are_errors(forkserver, tmp_path):
    result = run(forkserver, tmp_path, """
        import warnings
        warnings.warn("old API", DeprecationWarning)
    """, world_size=1)
    assert result.first_failure == 0
    assert "DeprecationWarning: old API" in result.ranks[0].stderr
    assert "ranktest" not in result.ranks[0].stderr  # the traceback starts in the script


def test_run_function_on_ranks(forkserver):
    from tests.support.distributed_functions import fails_on_rank_one, sum_of_ranks

    result = forkserver.run_function(sum_of_ranks, world_size=3).check()
    assert [r.stdout for r in result.ranks] == [f"rank {r}: 3.0\n" for r in range(3)]
    failed = forkserver.run_function(fails_on_rank_one, world_size=2, timeout=30)
    assert failed.first_failure == 1
    assert "AssertionError: rank 1 disagrees" in failed.ranks[1].stderr
    assert "distributed_functions.py" in failed.ranks[1].stderr  # traceback into the function


def test_run_function_refuses_what_ranks_cannot_import(forkserver):
    with pytest.raises(ValueError, match="module-level function"):
        forkserver.run_function(lambda: None)


def test_capabilities_name_the_gpus_exactly_when_there_are_cuda_devices(forkserver):
    # On a GPU runner: the model, driver, CUDA and NCCL the GPU records name (probed in a child,
    # so the server itself never initializes CUDA); on a CPU-only machine: nothing.
    caps = forkserver.capabilities
    assert (caps.gpu is None) == (caps.cuda_devices == 0), caps
    if caps.gpu is not None:
        assert set(caps.gpu) == {"model", "driver", "cuda", "nccl"} and caps.gpu["model"], caps


def test_a_process_a_rank_left_in_a_session_of_its_own_is_killed_too(forkserver, tmp_path):
    # torchrun's workers run in sessions of their own: killing the rank's session misses them,
    # and a worker that outlived a timed-out launch stayed behind (seen under make compat).
    result = run(forkserver, tmp_path, """
        import subprocess
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"],
                                 start_new_session=True)
        pathlib.Path(os.environ["PID_DIR"], f"child{rank}").write_text(str(child.pid))
    """, world_size=1)
    assert result.ok, result.report()
    assert [p.name for p in (tmp_path / "pids").glob("child*")] == ["child0"]
    # run() asserted that the child, re-parented to the server and killed there, is gone.
