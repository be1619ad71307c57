"""Each distributed snippet, copied alone into an empty directory, runs under real torchrun with
the command written in it and prints what its expected-output file records for each rank.

The launch's agent is torchrun's own entry point with the ``Run:`` line's arguments, forked from
the session's warm server (``ranktest.torchrun.launch_warm``): one torch import fewer per launch,
a third of its CPU time. Its workers are fresh processes, started by torchrun, that import torch
and run the copied file as ``__main__``: what a reader's launch does. ``make soak`` and the
tests below that start the ``torchrun`` executable itself cover the console script.

The copy launched is the snippet's Chinese-commented file, the one the Chinese page offers: it
is the same program as the English file (byte for byte outside comments and the docstring, as
``tests/snippets/test_localized_comments.py`` checks), so one launch shows both that the file
runs alone and that the Chinese file prints the record. The English file's own run is the
collector's harness run."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import pytest

from refsite import snippets
from refsite.snippets import localized
from ranktest import _procs as procs
from ranktest.torchrun import kill_tree, torchrun_argv
from refsite.testing.snippet_runs import alone_problem, case_id, cpu_variants, run_alone
from tests.support.paths import SNIPPETS
from refsite.testing import machine


CASES = cpu_variants(SNIPPETS, torchrun_only=True)


@pytest.mark.slow
@pytest.mark.parametrize("spec, variant", CASES, ids=[case_id(*case) for case in CASES])
def test_snippet_runs_alone_under_torchrun(snippet_checks, snippet_server, pytestconfig, spec, variant):
    machine.require(spec.needs)
    # One launch, no second chance; `make soak` launches each snippet SOAK_RUNS times. A launch
    # that passed before with the same inputs is not repeated (passed_checks; `make test-all`).
    with snippet_checks.unless_passed(f"torchrun-alone {case_id(spec, variant)}", Path(__file__),
                                      spec.path, localized.translations_path(spec.path),
                                      spec.record_path(variant), repr(variant)):
        # A missing or stale translation leaves English text in the file (and fails
        # test_every_snippet_is_translated); the program is the same either way.
        chinese = localized.localize(spec.path).text
        if problem := alone_problem(spec, variant, timeout=pytestconfig.getoption("snippet_timeout"),
                                    localized_text=chinese, server=snippet_server):
            pytest.fail(problem, pytrace=False)


@pytest.mark.slow
def test_a_launch_runs_the_text_it_is_given(tmp_path):
    # The copied-alone check launches a snippet's Chinese file: the copy holds that text, under
    # the snippet's own name, not the English file.
    path = tmp_path / "hello.py"
    path.write_text('"""Hello.\n\nRun: torchrun --standalone --nproc-per-node=2 hello.py\n"""\n'
                    "print(__doc__.splitlines()[0], __file__.rsplit('/', 1)[-1])\n")
    spec = snippets.read_spec(path)
    chinese = path.read_text().replace("Hello.", "你好。")
    result = run_alone(spec, spec.variants[0], text=chinese)
    assert result.stdout == ("你好。 hello.py\n",) * 2, result.report()


@pytest.mark.slow
@pytest.mark.parametrize("import_first, warm", [(False, False), (True, False), (False, True)],
                         ids=["leak", "no-leak", "leak-warm-agent"])
def test_a_group_left_alive_at_exit_is_reported(tmp_path, snippet_server, import_first, warm):
    # torch._dynamo (which DDP and optimizers import lazily) imports torch.distributed.nn; when
    # that happens after init_process_group, its functions keep the default group as a default
    # argument and destroy_process_group() cannot free it. The forkserver preloads torch._dynamo,
    # so only a fresh process shows it; a warm launch's workers are such processes.
    path = tmp_path / "leak.py"
    path.write_text('"""Run: torchrun --standalone --nproc-per-node=2 leak.py"""\n'
                    "import torch.distributed as dist\n"
                    + ("import torch.distributed.nn\n" if import_first else "")
                    + 'dist.init_process_group("gloo")\n'
                    "import torch._dynamo\n"
                    "dist.barrier()\n"
                    "dist.destroy_process_group()\n")
    spec = snippets.read_spec(path)
    result = run_alone(spec, spec.variants[0], server=snippet_server if warm else None)
    reported = ["a process group was still alive at exit" in err for err in result.stderr]
    assert reported == [not import_first] * 2, result.report()


@pytest.mark.slow
def test_killing_a_launch_leaves_no_worker_behind(tmp_path):
    # torchrun starts each worker in a session of its own: killing the launcher's process group
    # alone would leave them running. run_alone() kills the tree this way when a launch times out.
    pids = tmp_path / "pids"
    pids.mkdir()
    (tmp_path / "hang.py").write_text(
        "import os, pathlib, time\n"
        'pathlib.Path(os.environ["PID_DIR"], os.environ["RANK"]).write_text(str(os.getpid()))\n'
        "time.sleep(300)\n")
    argv = torchrun_argv(["--standalone", "--nproc-per-node=2", "hang.py"])
    proc = subprocess.Popen(argv, cwd=tmp_path, env={**os.environ, "PID_DIR": str(pids)},
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while len([p for p in pids.iterdir() if p.read_text()]) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
    finally:
        kill_tree(proc)
    workers = [int(p.read_text()) for p in pids.iterdir()]
    assert len(workers) == 2, "both workers should have started"
    deadline = time.monotonic() + 5
    while any(procs.alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [pid for pid in workers if procs.alive(pid)], "workers outlived the killed launch"


@pytest.mark.slow
def test_a_warm_launch_fails_as_the_executable_does_and_times_out_leaving_nothing(tmp_path, snippet_server):
    path = tmp_path / "fail.py"
    path.write_text('"""Run: torchrun --standalone --nproc-per-node=2 fail.py"""\n'
                    "import os, sys\n"
                    'print("rank", os.environ["RANK"])\n'
                    'sys.exit(3 if os.environ["RANK"] == "1" else 0)\n')
    spec = snippets.read_spec(path)
    fresh = run_alone(spec, spec.variants[0])
    warm = run_alone(spec, spec.variants[0], server=snippet_server)
    assert (warm.returncode, warm.stdout) == (fresh.returncode, fresh.stdout) == (1, ("rank 0\n", "rank 1\n"))
    assert "ChildFailedError" in warm.launcher_output and "exitcode  : 3" in warm.launcher_output, warm.report()
    # Planted: a launch that never ends is stopped at its timeout, its workers with it.
    pids = tmp_path / "pids"
    pids.mkdir()
    path.write_text('"""Run: torchrun --standalone --nproc-per-node=2 fail.py"""\n'
                    "import os, pathlib, time\n"
                    f'pathlib.Path({str(pids)!r}, os.environ["RANK"]).write_text(str(os.getpid()))\n'
                    "time.sleep(300)\n")
    spec = snippets.read_spec(path)
    with pytest.raises(subprocess.TimeoutExpired):
        run_alone(spec, spec.variants[0], timeout=8, server=snippet_server)
    workers = [int(p.read_text()) for p in pids.iterdir() if p.read_text()]
    assert len(workers) == 2, "both workers should have started"
    assert not [pid for pid in workers if procs.alive(pid)], "workers outlived the stopped launch"


def test_killing_a_tree_lets_no_parent_report_its_child_killed():
    # Killed leaves-first, a shell waiting on its child saw the child die and printed "Killed"
    # into the output a caller compares (12 of 30 times here before the fix). The tree is now
    # stopped from the top down before anything dies.
    script = "sh -c 'echo started; [ 1 = 2 ] || sleep 60'"
    reports = []
    for _ in range(20):
        proc = subprocess.Popen(["sh", "-c", script], stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True)
        assert proc.stdout.readline() == "started\n"
        time.sleep(0.02)  # the inner shell is now waiting on sleep
        kill_tree(proc)
        reports.append(proc.stdout.read())
        proc.stdout.close()
    assert reports == [""] * 20


def test_a_killed_tree_is_gone_when_kill_tree_returns():
    # A SIGKILL is delivered asynchronously: returning as soon as the top process was reaped let
    # a caller see a grandchild still running (the cluster test that lists a host's processes
    # right after a timeout failed once so). Every process of the tree is dead on return.
    script = "sleep 60 & sleep 60 & echo started; wait"
    for _ in range(20):
        proc = subprocess.Popen(["sh", "-c", script], stdout=subprocess.PIPE, text=True)
        assert proc.stdout.readline() == "started\n"
        tree = [c for c in procs.children().get(proc.pid, [])]
        assert len(tree) == 2
        kill_tree(proc)
        proc.stdout.close()
        assert [pid for pid in tree if procs.alive(pid)] == []
