"""Distributed snippets under the real ``torchrun``: two "nodes" on 127.0.0.1, elastic restarts,
the failure report, and the legacy ``torch.distributed.launch`` (one node is the copied-alone
check of ``test_torchrun.py``, which runs every distributed snippet that way).

The snippet suite runs every example through the warm harness, which imitates ``torchrun``'s
environment. These tests check the claims of the launch page against ``torchrun`` itself: each
run writes every worker's output to ``--log-dir DIR --redirects 3``, which the tests read.
Every ``torchrun`` gets a timeout; on failure or timeout, its whole process tree is killed
(workers run in sessions of their own, so they are found through ``/proc``).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ranktest.torchrun import kill_tree, rank_logs, torchrun_argv, torchrun_executable
from tests.support.paths import REPO

pytestmark = pytest.mark.slow


SNIPPETS = REPO / "snippets" / "distributed"
TIMEOUT_S = 120


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Launch:
    """One ``torchrun`` process, its per-worker logs, and its console output."""

    def __init__(self, args: list[str], log_dir: Path, cwd: Path = SNIPPETS):
        self.log_dir = log_dir
        env = dict(os.environ, PYTHONIOENCODING="utf-8")
        self.proc = subprocess.Popen(
            torchrun_argv(args, log_dir),
            cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )
        self.console = ""

    def wait(self, deadline: float) -> int:
        try:
            self.console, _ = self.proc.communicate(timeout=max(1.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            kill_tree(self.proc)
            self.console = self.proc.stdout.read() if self.proc.stdout else ""
            raise
        return self.proc.returncode

    def log(self, attempt: int, local_rank: int, stream: str = "stdout") -> str:
        stdout, stderr = rank_logs(self.log_dir, local_rank, attempt)
        return stdout if stream == "stdout" else stderr

    def env_of(self, attempt: int, local_rank: int) -> dict[str, str]:
        """The NAME=value lines a worker of ``torchrun_env.py`` printed."""
        lines = self.log(attempt, local_rank).splitlines()
        return dict(line.split("=", 1) for line in lines if "=" in line and " " not in line)


def run_all(launches: list[Launch]) -> list[int]:
    """Wait for every launch; on a timeout or a failed launch, kill them all."""
    deadline = time.monotonic() + TIMEOUT_S
    codes = []
    try:
        for launch in launches:
            codes.append(launch.wait(deadline))
    except subprocess.TimeoutExpired:
        for launch in launches:
            if launch.proc.poll() is None:
                kill_tree(launch.proc)
        pytest.fail("torchrun timed out:\n" + "\n".join(launch.console[-3000:] for launch in launches))
    finally:
        for launch in launches:
            if launch.proc.poll() is None:
                kill_tree(launch.proc)
    return codes


def _report(launches: list[Launch]) -> str:
    return "\n\n".join(f"--- torchrun {i} console ---\n{launch.console[-4000:]}"
                       for i, launch in enumerate(launches))


def test_two_nodes_on_one_machine_with_c10d_rendezvous(tmp_path: Path) -> None:
    """Two agents, 2 workers each, meet at a c10d rendezvous endpoint: 4 ranks on 2 "nodes"."""
    endpoint = f"127.0.0.1:{free_port()}"
    launches = [
        Launch(["--nnodes=2", f"--node-rank={node}", "--nproc-per-node=2", "--rdzv-backend=c10d",
                f"--rdzv-endpoint={endpoint}", "--rdzv-id=two-nodes", "torchrun_env.py"],
               tmp_path / f"node{node}")
        for node in (0, 1)
    ]
    assert run_all(launches) == [0, 0], _report(launches)
    group_ranks, ranks = set(), set()
    for launch in launches:
        envs = [launch.env_of(0, local_rank) for local_rank in (0, 1)]
        assert {env["GROUP_RANK"] for env in envs} == {envs[0]["GROUP_RANK"]}  # one node
        for local_rank, env in enumerate(envs):
            assert env["LOCAL_RANK"] == str(local_rank)
            assert (env["WORLD_SIZE"], env["LOCAL_WORLD_SIZE"], env["GROUP_WORLD_SIZE"]) == ("4", "2", "2")
            assert int(env["RANK"]) == 2 * int(env["GROUP_RANK"]) + local_rank
            assert env["TORCHELASTIC_USE_AGENT_STORE"] == "True"
            ranks.add(int(env["RANK"]))
            assert launch.log(0, local_rank, "stderr") == ""
        group_ranks.add(envs[0]["GROUP_RANK"])
    assert group_ranks == {"0", "1"} and ranks == {0, 1, 2, 3}


def test_two_nodes_with_static_master_address(tmp_path: Path) -> None:
    """With --master-addr/--master-port (static rendezvous), --node-rank sets GROUP_RANK."""
    port = free_port()
    launches = [
        Launch(["--nnodes=2", f"--node-rank={node}", "--nproc-per-node=1", "--master-addr=127.0.0.1",
                f"--master-port={port}", "torchrun_env.py"], tmp_path / f"node{node}")
        for node in (1, 0)  # the second node starts first: the rank still follows --node-rank
    ]
    assert run_all(launches) == [0, 0], _report(launches)
    for node, launch in zip((1, 0), launches):
        env = launch.env_of(0, 0)
        assert (env["GROUP_RANK"], env["RANK"], env["WORLD_SIZE"]) == (str(node), str(node), "2")


def test_two_nodes_of_two_workers_number_ranks_as_the_overview_says(tmp_path: Path) -> None:
    """overview_ranks.py on 2 "nodes" x 2 workers: the table of the overview page."""
    port = free_port()
    launches = [
        Launch(["--nnodes=2", f"--node-rank={node}", "--nproc-per-node=2", "--master-addr=127.0.0.1",
                f"--master-port={port}", "overview_ranks.py"], tmp_path / f"node{node}")
        for node in (0, 1)
    ]
    assert run_all(launches) == [0, 0], _report(launches)
    assert launches[0].log(0, 0).splitlines()[1:] == [
        "the whole job, as rank 0 sees it:",
        "  rank 0: node 0, local rank 0",
        "  rank 1: node 0, local rank 1",
        "  rank 2: node 1, local rank 0",
        "  rank 3: node 1, local rank 1",
    ]
    assert launches[1].log(0, 1) == "I am {'rank': 3, 'local_rank': 1, 'node': 1, 'world_size': 4}\n"


def test_max_restarts_resumes_from_the_checkpoint(tmp_path: Path) -> None:
    """elastic_restart.py fails once on purpose; --max-restarts=1 runs a second attempt."""
    launch = Launch(["--standalone", "--nproc-per-node=2", "--max-restarts=1",
                     "elastic_restart.py"], tmp_path)
    assert run_all([launch]) == [0], _report([launch])
    assert "rank 1 fails on purpose" in launch.log(0, 1)
    for rank in (0, 1):
        assert launch.log(0, rank).startswith("attempt 0 (restarts allowed: 1): starting at step 0\n")
        assert launch.log(1, rank) == ("attempt 1 (restarts allowed: 1): starting at step 2\n"
                                       "step 2 done\nstep 3 done\nfinished\n")


FAILING = '''\
import os
import torch.distributed as dist
from torch.distributed.elastic.multiprocessing.errors import record


@record
def main():
    dist.init_process_group("gloo")
    if dist.get_rank() == 1:
        raise ValueError("loss is NaN at step 2")
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
'''


def test_a_failure_report_names_the_root_cause(tmp_path: Path) -> None:
    """With @record, torchrun's report quotes the failing rank's exception as the root cause."""
    (tmp_path / "fail.py").write_text(FAILING, encoding="utf-8")
    launch = Launch(["--standalone", "--nproc-per-node=2", "fail.py"], tmp_path / "logs", cwd=tmp_path)
    assert run_all([launch]) == [1], _report([launch])
    report = launch.console[launch.console.index("Root Cause (first observed failure):"):]
    assert "rank      : 1 (local_rank: 1)" in report
    assert "error_file: " in report and "error_file: <N/A>" not in report
    assert "ValueError: loss is NaN at step 2" in report


LEGACY = '''\
import os
import sys

print(f"argv={sys.argv[1:]} LOCAL_RANK={os.environ.get('LOCAL_RANK')}")
'''


def test_legacy_launch_passes_local_rank_and_warns(tmp_path: Path) -> None:
    """torch.distributed.launch still runs in 2.13: it warns, and passes --local-rank=N."""
    (tmp_path / "legacy.py").write_text(LEGACY, encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "torch.distributed.launch", "--standalone", "--nproc-per-node=1",
         "legacy.py"],
        cwd=tmp_path, capture_output=True, text=True, timeout=TIMEOUT_S,
    )
    assert proc.returncode == 0, proc.stderr
    assert "FutureWarning: The module torch.distributed.launch is deprecated" in proc.stderr
    assert "argv=['--local-rank=0'] LOCAL_RANK=0" in proc.stdout
    proc = subprocess.run(
        [*torchrun_executable(), "--standalone", "--nproc-per-node=1", "--use-env", "legacy.py"],
        cwd=tmp_path, capture_output=True, text=True, timeout=TIMEOUT_S,
    )
    assert proc.returncode != 0 and "unrecognized arguments: --use-env" in proc.stderr
    proc = subprocess.run([*torchrun_executable(), "--standalone", "--nproc-per-node=1", "legacy.py"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=TIMEOUT_S)
    assert proc.returncode == 0 and "argv=[] LOCAL_RANK=0" in proc.stdout
