"""Nothing of a virtual cluster outlives it: no namespace, ``/etc/netns`` entry, state directory,
process (daemons that left their parent included, Slurm's daemons and job steps too) or reaper,
whether the test using it passes, fails, is stopped by pytest-timeout (both methods), is
interrupted, or its whole process is killed; and a cluster whose owner and reaper were both
killed is removed when the next one starts.

Each case runs a pytest session (or a Python process) of its own, as a user's would be, and
then looks for what is left of the clusters that process made (``cluster_net.leftovers``).
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from refsite.testing.machine import cannot_run

from ranktest.cluster import _net as cluster_net, slurm
from ranktest.cluster import Cluster, unavailable

if reason := unavailable():
    cannot_run(f"virtual cluster: {reason}", module=True)

pytestmark = pytest.mark.slow

#: A user's test file: every test starts processes on both hosts (one of them a daemon that
#: leaves its parent), writes READY, then fails, hangs or passes.
USER_TESTS = '''\
import time
from pathlib import Path


def start(cluster):
    for host in cluster.hosts:
        host.popen(["sleep", "600"])
        host.popen(["setsid", "-f", "sleep", "601"])  # a daemon: its parent exits at once
    while sum(len(host.processes()) for host in cluster.hosts) < 4:
        time.sleep(0.05)
    Path("READY").write_text(cluster.id)


def test_planted_failure(cluster):
    start(cluster)
    assert False, "planted failure"


def test_hangs(cluster):
    start(cluster)
    time.sleep(600)


def test_passes(cluster):
    start(cluster)
'''

#: Outside pytest: a cluster in a ``with`` block, processes on it, READY, then a long sleep.
SCRIPT = '''\
import time
from pathlib import Path
from ranktest.cluster import Cluster

with Cluster(hosts=2) as cluster:
    for host in cluster.hosts:
        host.popen(["setsid", "-f", "sleep", "602"])
    while sum(len(host.processes()) for host in cluster.hosts) < 2:
        time.sleep(0.05)
    Path("READY").write_text(cluster.id)
    time.sleep(600)
'''

#: Slurm's daemons and a running batch job step on the cluster, then READY and a long sleep.
SCRIPT_SLURM = '''\
import time
from pathlib import Path
from ranktest.cluster import Cluster
from ranktest.cluster.slurm import Slurm

with Cluster(hosts=2) as cluster, Slurm(cluster) as slurm:
    job = slurm.sbatch("#!/bin/sh\\nsrun -N2 sleep 603\\n", args=["-N2"])
    while slurm.job(job).get("JobState") != "RUNNING" or len(cluster.hosts[1].processes()) < 3:
        time.sleep(0.1)
    Path("READY").write_text(cluster.id)
    time.sleep(600)
'''

NOTHING = {"namespaces": [], "etc_netns": [], "state_dirs": [], "processes": [], "reapers": []}


def wait_until_clean(owner: int, timeout: float = 30.0) -> dict[str, list]:
    """What the clusters of ``owner`` left, once nothing is left or after ``timeout`` seconds
    (the reaper may still be at work just after its owner died)."""
    deadline = time.monotonic() + timeout
    while (left := cluster_net.leftovers(owner)) != NOTHING and time.monotonic() < deadline:
        time.sleep(0.1)
    return left


def start_session(tmp_path: Path, test: str, *options: str) -> subprocess.Popen:
    (tmp_path / "test_user.py").write_text(USER_TESTS)
    # SIGINT as a terminal delivers it, whatever this test runner's own disposition (a background
    # job of a non-interactive shell starts with SIGINT ignored, and its children inherit that).
    return subprocess.Popen(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-W", "default",
         f"test_user.py::{test}", *options],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def wait_ready(proc: subprocess.Popen, tmp_path: Path, timeout: float = 60.0) -> str:
    deadline = time.monotonic() + timeout
    while not (tmp_path / "READY").exists():
        assert proc.poll() is None, proc.communicate()[0]
        assert time.monotonic() < deadline, "the cluster never came up"
        time.sleep(0.05)
    time.sleep(0.1)
    return (tmp_path / "READY").read_text()


def finish(proc: subprocess.Popen, timeout: float = 60.0) -> str:
    try:
        return proc.communicate(timeout=timeout)[0]
    except subprocess.TimeoutExpired:
        proc.kill()
        return proc.communicate()[0]


def test_nothing_left_after_a_passing_test(tmp_path: Path) -> None:
    proc = start_session(tmp_path, "test_passes")
    out = finish(proc)
    assert proc.returncode == 0, out
    assert cluster_net.leftovers(proc.pid) == NOTHING  # removed before the session ended


def test_nothing_left_after_a_planted_failure(tmp_path: Path) -> None:
    proc = start_session(tmp_path, "test_planted_failure")
    out = finish(proc)
    assert proc.returncode == 1 and "AssertionError: planted failure" in out, out
    assert cluster_net.leftovers(proc.pid) == NOTHING


@pytest.mark.parametrize("method", ["signal", "thread"])
def test_nothing_left_after_a_test_killed_by_timeout(tmp_path: Path, method: str) -> None:
    """``signal``: pytest-timeout fails the test and the fixture closes the cluster; ``thread``:
    it ends the whole process with ``os._exit``, and the reaper removes the cluster."""
    proc = start_session(tmp_path, "test_hangs", "--timeout=3", f"--timeout-method={method}")
    out = finish(proc)
    assert proc.returncode != 0 and "Timeout" in out, out
    assert (tmp_path / "READY").exists(), out
    assert wait_until_clean(proc.pid) == NOTHING


def test_nothing_left_after_an_interrupt(tmp_path: Path) -> None:
    proc = start_session(tmp_path, "test_hangs")
    wait_ready(proc, tmp_path)
    proc.send_signal(signal.SIGINT)
    out = finish(proc)
    assert "KeyboardInterrupt" in out, out
    assert cluster_net.leftovers(proc.pid) == NOTHING


def test_nothing_left_after_the_owner_is_killed(tmp_path: Path) -> None:
    proc = subprocess.Popen([sys.executable, "-c", SCRIPT], cwd=tmp_path)
    cluster_id = wait_ready(proc, tmp_path)
    assert cluster_net.leftovers(proc.pid)["namespaces"] == [
        f"{cluster_id}-node0", f"{cluster_id}-node1", f"{cluster_id}-sw"]
    proc.kill()
    proc.wait()
    assert wait_until_clean(proc.pid) == NOTHING


def test_no_slurm_daemon_or_job_step_left_after_the_owner_is_killed(tmp_path: Path) -> None:
    if reason := slurm.unavailable():
        pytest.skip(reason)
    proc = subprocess.Popen([sys.executable, "-c", SCRIPT_SLURM], cwd=tmp_path)
    wait_ready(proc, tmp_path)
    pids = cluster_net.leftovers(proc.pid)["processes"]
    names = sorted(Path(f"/proc/{pid}/comm").read_text().strip() for pid in pids)
    assert {"munged", "slurmctld", "slurmd", "slurmstepd", "sleep"} <= set(names), names
    proc.kill()
    proc.wait()
    assert wait_until_clean(proc.pid) == NOTHING
    assert [pid for pid in pids if cluster_net.procs.alive(pid)] == []


def orphaned_cluster(tmp_path: Path) -> subprocess.Popen:
    """A process that made a cluster, killed (SIGKILL) after its reaper: the cluster stays."""
    proc = subprocess.Popen([sys.executable, "-c", SCRIPT], cwd=tmp_path)
    wait_ready(proc, tmp_path)
    for reaper in cluster_net.leftovers(proc.pid)["reapers"]:
        cluster_net.procs.send(reaper, signal.SIGKILL)
    proc.kill()
    proc.wait()
    time.sleep(0.2)
    return proc


def test_a_stale_cluster_is_removed_when_the_next_one_starts(tmp_path: Path) -> None:
    """Owner and reaper both killed (SIGKILL, the reaper first): the cluster stays, with its
    processes, until the next cluster on this machine starts."""
    proc = orphaned_cluster(tmp_path)
    left = cluster_net.leftovers(proc.pid)
    assert len(left["namespaces"]) == 3 and len(left["processes"]) == 2 and left["reapers"] == []
    with Cluster(hosts=1):
        assert cluster_net.leftovers(proc.pid) == NOTHING


def test_the_cleanup_command_lists_and_removes_an_orphaned_cluster(tmp_path: Path) -> None:
    """``python -m ranktest.cluster.cleanup`` lists a cluster with its owner, keeps it while the
    owner runs, and once owner and reaper are both killed ``--clean`` removes all of it, without
    waiting for a next cluster. (Another worker's cluster start sweeps stale clusters too, so the
    listing is read while the owner still runs, when nothing else may remove it.)"""
    proc = subprocess.Popen([sys.executable, "-c", SCRIPT], cwd=tmp_path)
    cluster_id = wait_ready(proc, tmp_path)
    command = [sys.executable, "-m", "ranktest.cluster.cleanup"]
    listed = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    assert f"{cluster_id}: owner pid {proc.pid} running; 3 namespace(s), 2 process(es)" in listed, listed
    kept = subprocess.run([*command, "--clean"], capture_output=True, text=True, check=True).stdout
    assert cluster_id in kept.split("kept", 1)[-1] and len(cluster_net.leftovers(proc.pid)["namespaces"]) == 3
    for reaper in cluster_net.leftovers(proc.pid)["reapers"]:
        cluster_net.procs.send(reaper, signal.SIGKILL)
    proc.kill()
    proc.wait()
    swept_meanwhile = cluster_net.leftovers(proc.pid) == NOTHING
    cleaned = subprocess.run([*command, "--clean"], capture_output=True, text=True, check=True).stdout
    assert swept_meanwhile or f"removed 1 cluster(s) whose owner is gone: {cluster_id}" in cleaned, cleaned
    assert cluster_net.leftovers(proc.pid) == NOTHING
