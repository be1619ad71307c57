"""The virtual cluster (``ranktest.cluster``, the ``cluster`` fixture): hosts that are network
namespaces with their own name, address and hosts file; a real ``torchrun`` job of 2 nodes and
4 ranks across them (gloo, c10d and static rendezvous); faults on a host's link and processes.

Runs as root only (network namespaces); elsewhere the module is skipped with the reason.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from refsite.testing.machine import cannot_run

from ranktest.cluster import Cluster, ClusterError, ClusterTimeout, unavailable
from ranktest.cluster.faults import netem_unavailable
from ranktest.torchrun import rank_logs, torchrun_argv

if reason := unavailable():
    cannot_run(f"virtual cluster: {reason}", module=True)

pytestmark = pytest.mark.slow

TIMEOUT_S = 120

JOB = '''\
import os
import socket

import torch
import torch.distributed as dist

dist.init_process_group("gloo")
total = torch.tensor([float(dist.get_rank())])
dist.all_reduce(total)
print(f"host={socket.gethostname()} rank={dist.get_rank()} local_rank={os.environ['LOCAL_RANK']} "
      f"group_rank={os.environ['GROUP_RANK']} world_size={dist.get_world_size()} sum={total.item()}")
dist.barrier()
dist.destroy_process_group()
'''

#: Connects to PORT on HOST (argv 1, 2) and prints what happened, within TIMEOUT (argv 3).
CONNECT = '''\
import socket, sys, time
began = time.monotonic()
try:
    socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=float(sys.argv[3])).close()
    print("connected")
except OSError as exc:
    print(f"{type(exc).__name__} after {time.monotonic() - began:.1f} s")
'''
#: Listens on PORT (argv 1) and accepts for ever.
LISTEN = '''\
import socket, sys
server = socket.create_server(("", int(sys.argv[1])))
print("listening", flush=True)
while True:
    server.accept()[0].close()
'''
#: Receives one connection on PORT (argv 1) and prints how many bytes came and in how many seconds.
SINK = '''\
import socket, sys, time
server = socket.create_server(("", int(sys.argv[1])))
print("listening", flush=True)
conn, _ = server.accept()
began, received = time.monotonic(), 0
while chunk := conn.recv(1 << 16):
    received += len(chunk)
print(received, time.monotonic() - began, flush=True)
'''
#: Sends BYTES (argv 3) to PORT on HOST (argv 1, 2).
SEND = '''\
import socket, sys
with socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=30) as conn:
    conn.sendall(b"x" * int(sys.argv[3]))
'''


def _listen(host, port: int) -> subprocess.Popen:
    proc = host.popen([sys.executable, "-c", LISTEN, str(port)])
    assert proc.stdout.readline() == "listening\n"
    return proc


def _connect(host, target: str, port: int, timeout: float = 1.0) -> str:
    return host.run([sys.executable, "-c", CONNECT, target, str(port), str(timeout)], timeout=30).stdout


def test_each_host_has_its_own_name_address_and_hosts_file(cluster: Cluster) -> None:
    node0, node1 = cluster.hosts
    assert (node0.name, node0.address, node1.name, node1.address) == (
        "node0", "198.18.0.1", "node1", "198.18.0.2")
    for host in cluster.hosts:
        shown = host.run(["sh", "-c", "hostname; getent ahostsv4 node0 node1 | cut -d' ' -f1 | uniq; "
                          "ip -o -4 address show eth0"], timeout=10, check=True).stdout.splitlines()
        assert shown[:3] == [host.name, "198.18.0.1", "198.18.0.2"]
        assert f"inet {host.address}/24" in shown[3]
    _listen(node0, 29400)
    assert _connect(node1, "node0", 29400) == "connected\n"


def test_the_machine_network_is_untouched(tmp_path: Path) -> None:
    """Nothing of the cluster in the machine's own namespace: no link, no address, no route."""
    def machine() -> list[str]:
        return [subprocess.run(["ip", "-o", *what], capture_output=True, text=True, timeout=10).stdout
                for what in (["link"], ["address"], ["route"])]

    before = machine()
    with Cluster(hosts=3) as cluster:
        during = machine()
        assert _connect(cluster.hosts[2], "node0", 1).startswith("ConnectionRefusedError")  # at once
    assert before == during == machine()
    assert "198.18." not in "".join(during)


def _torchrun_job(cluster: Cluster, tmp_path: Path, rendezvous) -> dict[str, list[str]]:
    """Run JOB with torchrun on every host (2 workers each); return each host's worker lines."""
    (tmp_path / "job.py").write_text(JOB, encoding="utf-8")
    env = dict(os.environ, OMP_NUM_THREADS="1")
    results = cluster.run_each(
        lambda host: torchrun_argv(["--nnodes=2", "--nproc-per-node=2", *rendezvous(host), "job.py"],
                                   tmp_path / host.name),
        timeout=TIMEOUT_S, env=env, cwd=tmp_path)
    report = "\n".join(f"--- {h.name}: exit {r.returncode}\n{r.stdout[-3000:]}"
                       for h, r in zip(cluster.hosts, results))
    assert [r.returncode for r in results] == [0, 0], report
    lines = {}
    for host in cluster.hosts:
        logs = [rank_logs(tmp_path / host.name, local_rank) for local_rank in (0, 1)]
        assert [err for _, err in logs] == ["", ""], report
        lines[host.name] = [out.strip() for out, _ in logs]
    return lines


def test_torchrun_c10d_rendezvous_two_hosts_four_ranks(cluster: Cluster, tmp_path: Path) -> None:
    lines = _torchrun_job(cluster, tmp_path, lambda host: [
        "--rdzv-backend=c10d", "--rdzv-endpoint=node0:29400", "--rdzv-id=cluster-c10d"])
    ranks = set()
    for host in cluster.hosts:
        for local_rank, line in enumerate(lines[host.name]):
            fields = dict(field.split("=") for field in line.split())
            assert fields["host"] == host.name and fields["local_rank"] == str(local_rank)
            assert (fields["world_size"], fields["sum"]) == ("4", "6.0")
            assert int(fields["rank"]) == 2 * int(fields["group_rank"]) + local_rank
            ranks.add(int(fields["rank"]))
    assert ranks == {0, 1, 2, 3}


def test_torchrun_static_rendezvous_two_hosts_four_ranks(cluster: Cluster, tmp_path: Path) -> None:
    lines = _torchrun_job(cluster, tmp_path, lambda host: [
        f"--node-rank={host.index}", "--master-addr=node0", "--master-port=29500"])
    assert lines == {
        "node0": ["host=node0 rank=0 local_rank=0 group_rank=0 world_size=4 sum=6.0",
                  "host=node0 rank=1 local_rank=1 group_rank=0 world_size=4 sum=6.0"],
        "node1": ["host=node1 rank=2 local_rank=0 group_rank=1 world_size=4 sum=6.0",
                  "host=node1 rank=3 local_rank=1 group_rank=1 world_size=4 sum=6.0"],
    }


@pytest.mark.parametrize("cluster", [["a", "b", "c"]], indirect=True)
def test_three_hosts_on_one_switch(cluster: Cluster) -> None:
    assert [h.name for h in cluster.hosts] == ["a", "b", "c"]
    _listen(cluster["c"], 5000)
    assert [_connect(h, "c", 5000) for h in cluster.hosts[:2]] == ["connected\n"] * 2


def test_a_pulled_cable_cuts_the_host_off_until_plugged_back(cluster: Cluster) -> None:
    node0, node1 = cluster.hosts
    _listen(node0, 7000)
    node1.link.down()
    assert not node1.link.is_up()
    assert _connect(node1, "node0", 7000, timeout=1).startswith("TimeoutError after 1.")  # no reply
    node1.link.up()
    assert _connect(node1, "node0", 7000, timeout=5) == "connected\n"


def test_delay_and_loss_with_netem(cluster: Cluster) -> None:
    if reason := netem_unavailable(cluster.switch):
        with pytest.raises(ClusterError, match="tc netem is not available"):
            cluster.hosts[1].link.impair(delay_ms=100)
        pytest.skip(reason)
    node0, node1 = cluster.hosts
    _listen(node0, 7001)
    node1.link.impair(delay_ms=200)
    began = time.monotonic()
    assert _connect(node1, "node0", 7001, timeout=5) == "connected\n"
    assert time.monotonic() - began >= 0.4  # one round trip: 200 ms each way
    node1.link.impair(loss_percent=100)
    assert _connect(node1, "node0", 7001, timeout=1).startswith("TimeoutError after 1.")
    node1.link.clear()
    assert _connect(node1, "node0", 7001, timeout=5) == "connected\n"


def _transfer_s(sender, receiver, size: int, port: int = 7002) -> float:
    """Seconds ``receiver`` took to receive ``size`` bytes that ``sender`` sent over TCP."""
    sink = receiver.popen([sys.executable, "-c", SINK, str(port)])
    assert sink.stdout.readline() == "listening\n"
    sender.run([sys.executable, "-c", SEND, receiver.name, str(port), str(size)], timeout=30, check=True)
    received, seconds = sink.stdout.readline().split()
    assert sink.wait(timeout=10) == 0 and int(received) == size
    return float(seconds)


def test_a_rate_limited_link_takes_payload_over_rate(cluster: Cluster) -> None:
    """1.25 MB at 10 Mbit/s: 1 s each way (a few percent more: TCP/IP headers), then at line
    rate again once cleared."""
    node0, node1 = cluster.hosts
    size, expected_s = 1_250_000, 1.0
    assert _transfer_s(node1, node0, size) < 0.3 * expected_s  # unlimited: far faster
    node1.link.limit_rate(10)
    for sender, receiver in ((node1, node0), (node0, node1)):  # from node1, then to it
        assert 0.95 * expected_s < _transfer_s(sender, receiver, size) < 1.4 * expected_s
    node1.link.clear()
    assert _transfer_s(node0, node1, size) < 0.3 * expected_s


def test_killing_a_host_ends_its_processes_only(cluster: Cluster) -> None:
    node0, node1 = cluster.hosts
    survivor = node0.popen(["sleep", "600"])
    victims = [node1.popen(["sleep", "600"]) for _ in range(2)]
    deadline = time.monotonic() + 30
    while sorted(node1.processes()) != sorted(v.pid for v in victims) or any(
            Path(f"/proc/{v.pid}/comm").read_text() != "sleep\n" for v in victims):
        assert time.monotonic() < deadline, node1.processes()
        time.sleep(0.05)
    assert sorted(node1.kill()) == sorted(v.pid for v in victims)
    assert [v.wait(timeout=10) for v in victims] == [-signal.SIGKILL] * 2
    assert survivor.poll() is None and node1.processes() == []


def test_a_command_past_its_timeout_is_killed(cluster: Cluster) -> None:
    began = time.monotonic()
    script = "echo $(hostname); [ $(hostname) = node0 ] || sleep 60"
    with pytest.raises(ClusterTimeout, match="still running after 1 s on node1") as caught:
        cluster.run_each(["sh", "-c", script], timeout=1)
    assert time.monotonic() - began < 10
    assert [r.returncode for r in caught.value.results] == [0, None]
    assert [r.stdout for r in caught.value.results] == ["node0\n", "node1\n"]
    assert cluster.hosts[1].processes() == []
