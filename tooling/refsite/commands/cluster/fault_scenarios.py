"""The fault scenarios of ``measure_cluster``: a node killed mid-training, a link taken down
mid-collective (static rendezvous, then c10d), ``GLOO_SOCKET_IFNAME`` right and wrong, the c10d
launch on hosts that share one host name and its three fixes, on a 2-host virtual cluster
(:mod:`ranktest.cluster`). Each runs the scripts of ``snippets/multinode/`` the way a reader
runs them and times the fault from outside: every output line is stamped as it arrives, so a
run records when the fault was made, when node0 first reported it and when its ``torchrun``
exited. What torchrun printed is condensed (:func:`cluster_output.condense`).
"""

from __future__ import annotations

import contextlib
import math
import os
import re
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path

from ranktest.cluster import Cluster, Host
from ranktest.torchrun import kill_tree
from refsite.commands.cluster import output as cluster_output
from refsite.commands.cluster.scenarios import HANG_TIMEOUT_S, c10d_argv, node_env, run_torchrun, static_argv

STEPS = "multinode/train_steps.py"
TRAIN = "multinode/train.py"
#: The step after which the fault is made (node0's rank 0 printed it), and how long after.
FAULT_AFTER = re.compile(r"^rank 0: node 0, step 2 done$")
FAULT_DELAY_S = 0.25
#: Seconds to wait for the step, and for every node to end after the fault.
START_TIMEOUT_S = 90
END_TIMEOUT_S = 60
#: A line in which a rank reports the error it got.
FAILED = re.compile(r"^rank \d+: step \d+ failed")


class Watched:
    """A command on a host whose output lines are stamped (``time.monotonic()``) as they come."""

    def __init__(self, host: Host, argv: list[str], cwd: Path):
        self.host, self.argv = host, argv
        self.proc = host.popen(argv, env=node_env(), cwd=cwd, bufsize=1)
        self.lines: list[tuple[float, str]] = []
        self.ended: float | None = None
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.append((time.monotonic(), line.rstrip("\n")))
        self.proc.wait()
        self.ended = time.monotonic()

    def first(self, pattern: re.Pattern, after: float = 0.0) -> float | None:
        """When the first line matching ``pattern`` came, at or after ``after``."""
        return next((t for t, line in list(self.lines) if t >= after and pattern.search(line)), None)

    def wait_for(self, pattern: re.Pattern, timeout: float) -> float:
        deadline = time.monotonic() + timeout
        while (found := self.first(pattern)) is None:
            if time.monotonic() > deadline or self.ended is not None:
                raise RuntimeError(f"{self.host.name} did not print {pattern.pattern!r}:\n"
                                   + "\n".join(line for _, line in self.lines[-30:]))
            time.sleep(0.02)
        return found

    def wait(self, deadline: float) -> None:
        """Wait until the command ends or ``deadline`` passes."""
        self._reader.join(max(0.0, deadline - time.monotonic()))

    def pause(self) -> None:
        """Stop the command (SIGSTOP) if it still runs: what it prints from now on is nothing."""
        if self.ended is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.proc.pid, signal.SIGSTOP)

    def finish(self, deadline: float) -> int | None:
        """Wait until the command ends or ``deadline`` passes (then kill it: ``None``)."""
        self._reader.join(max(0.1, deadline - time.monotonic()))
        if self._reader.is_alive():
            kill_tree(self.proc)
            self._reader.join()
            return None
        return self.proc.returncode

    def entry(self, code: int | None) -> dict:
        text = "".join(line + "\n" for _, line in self.lines)
        return cluster_output.host_entry(self.host.name, self.argv, code, text, condensed=True)


def elapsed(t: float | None, since: float) -> float | None:
    """Seconds from ``since`` to ``t``, a time a watch saw (None: it never came)."""
    return None if t is None else t - since


def fault_run(name: str, workdir: Path, fault: Callable[[Cluster], None], *,
              argv: Callable[[Host], list[str]] | None = None, timeout: float = END_TIMEOUT_S,
              prepare: Callable[[Cluster], dict] | None = None,
              times: Callable[[list[Watched], float], dict] | None = None) -> dict:
    """``train_steps.py`` on 2 hosts x 2 ranks (``argv(host)``; default: the static launch);
    after step 2, ``fault(cluster)``; then every node ends (or is killed ``timeout`` seconds
    after the fault). ``prepare(cluster)``, before the launch, and ``times(nodes, made)``, at
    the end, give more items of the run."""
    with Cluster(hosts=2) as cluster:
        prepared = prepare(cluster) if prepare else {}
        began = time.monotonic()
        command = argv or (lambda host: static_argv(host, script="train_steps.py"))
        nodes = [Watched(h, command(h), workdir) for h in cluster.hosts]
        nodes[0].wait_for(FAULT_AFTER, START_TIMEOUT_S)
        time.sleep(FAULT_DELAY_S)
        made = time.monotonic()
        fault(cluster)
        codes = [node.finish(made + timeout) for node in nodes]
        run = {"name": name, "bring_up_s": cluster.bring_up_s, "fault_at_s": made - began,
               "timeout_s": timeout, **prepared}
        for node in nodes:
            if node.host.index == 0 or codes[node.host.index] != -9:  # a killed node reports nothing
                run[f"{node.host.name}_detection_s"] = elapsed(node.first(FAILED, made), made)
                run[f"{node.host.name}_agent_exit_s"] = elapsed(node.ended, made)
        run.update(times(nodes, made) if times else {})
        run["elapsed_s"] = time.monotonic() - began
        run["hosts"] = [node.entry(code) for node, code in zip(nodes, codes)]
        return run


def node_killed(workdir: Path) -> list[dict]:
    """Every process of node1 killed (SIGKILL, as in a crash) after step 2."""
    return [fault_run("node_killed", workdir, lambda cluster: cluster.hosts[1].kill())]


def link_down(workdir: Path) -> list[dict]:
    """node1's cable pulled after step 2: no process dies, no connection is closed."""
    return [fault_run("link_down", workdir, lambda cluster: cluster.hosts[1].link.down())]


#: The c10d link-down runs: name, torchrun options added, ``net.ipv4.tcp_retries2`` set on every
#: host (None: the machine's), seconds after the fault before a node still running is killed.
C10D_LINK_RUNS = (
    ("as_shipped", (), None, 1020),
    ("rdzv_timeouts", ("--rdzv-conf=read_timeout=10,join_timeout=30,close_timeout=10,heartbeat_timeout=5",),
     None, 150),
    ("tcp_retries2", (), 8, 180),
)
#: node1's agent: its store request timed out (``read_timeout``); the kernel gave the connection up.
STORE_TIMEOUT = re.compile(r"\[c10d\] waitForInput: socket .* timed out after (\d+) ?ms")
STORE_ERROR = re.compile(r"\[c10d\] recv\w* failed on ")


def tcp_give_up_s(retries: int, rto_min: float = 0.2, rto_max: float = 120.0) -> float:
    """When Linux gives up a connection whose data is not acknowledged, ``retries`` being
    ``net.ipv4.tcp_retries2``: ``tcp_model_timeout()`` of ``net/ipv4/tcp_timer.c`` with the
    minimum retransmission timeout, the "hypothetical timeout" of the kernel's ip-sysctl
    documentation (924.6 s for the default 15), a lower bound: a real timeout starts a little
    above the minimum, and the last retransmission ends the wait."""
    linear = int(math.log2(rto_max / rto_min))  # doublings before the timeout reaches rto_max
    if retries <= linear:
        return ((2 << retries) - 1) * rto_min
    return ((2 << linear) - 1) * rto_min + (retries - linear) * rto_max


def c10d_link_down(workdir: Path) -> list[dict]:
    """:func:`link_down` with the c10d rendezvous (node0 hosts its store): as torch ships it,
    with every rendezvous timeout short, then with ``net.ipv4.tcp_retries2`` lowered on the
    hosts. Besides each node's times, a run has when node1's agent reported its store request
    timed out (``node1_store_timeout_s``, and the wait it printed) and when the kernel gave up
    the connection (``node1_store_error_s``), and the kernel's give-up time for the hosts'
    ``tcp_retries2`` (``tcp_give_up_s``: :func:`tcp_give_up_s`, computed, not measured)."""
    def run(name: str, options: tuple[str, ...], retries: int | None, timeout: float) -> dict:
        def prepare(cluster: Cluster) -> dict:
            if retries is not None:
                for host in cluster.hosts:
                    host.run(["sysctl", "-qw", f"net.ipv4.tcp_retries2={retries}"], check=True)
            value = int(cluster.hosts[1].run(["sysctl", "-n", "net.ipv4.tcp_retries2"], check=True).stdout)
            return {"tcp_retries2": value, "tcp_give_up_s": tcp_give_up_s(value)}

        def times(nodes: list[Watched], made: float) -> dict:
            node1 = nodes[1]
            waited = next((STORE_TIMEOUT.search(line) for _, line in node1.lines
                           if STORE_TIMEOUT.search(line)), None)
            return {"node1_store_timeout_s": elapsed(node1.first(STORE_TIMEOUT, made), made),
                    "node1_store_error_s": elapsed(node1.first(STORE_ERROR, made), made),
                    "figures": {"store_wait": f"{waited.group(1)} ms" if waited else "none"}}

        def argv(host: Host) -> list[str]:
            command = c10d_argv(host)
            return [*command[:-1], *options, "train_steps.py"]

        done = fault_run(name, workdir, lambda cluster: cluster.hosts[1].link.down(), argv=argv,
                         timeout=timeout, prepare=prepare, times=times)
        done["figures"]["tcp_retries2"] = str(done["tcp_retries2"])
        for host in done["hosts"]:  # the socket's descriptor number varies between runs
            host["agent"] = [re.sub(r"\bfd=\d+", "fd=<fd>", line) for line in host["agent"]]
        return done

    return [run(*spec) for spec in C10D_LINK_RUNS]


def socket_ifname(workdir: Path) -> list[dict]:
    """``train.py`` on hosts that share this machine's host name (the pitfall of ``hostname``),
    with ``GLOO_SOCKET_IFNAME`` naming the hosts' interface, then naming one they lack."""
    def argv(interface: str) -> Callable[[Host], list[str]]:
        return lambda host: ["env", f"GLOO_SOCKET_IFNAME={interface}",
                             *static_argv(host, master="198.18.0.1")]

    return [run_torchrun("right_interface", workdir, argv("eth0"), hostnames=False, condensed=True),
            run_torchrun("wrong_interface", workdir, argv("eth1"), hostnames=False, condensed=True)]


def timed_run(name: str, workdir: Path, argv: Callable[[Host], list[str]], timeout: float) -> dict:
    """``argv(host)`` on 2 hosts that share this machine's host name and hosts file, each
    node's end timed (``<host>_agent_exit_s``; a node still running at ``timeout`` is killed)."""
    with Cluster(hosts=2, hostnames=False) as cluster:
        began = time.monotonic()
        nodes = [Watched(h, argv(h), workdir) for h in cluster.hosts]
        for node in nodes:
            node.wait(began + timeout)
        for node in nodes:  # all stopped before any is killed: none reports another's end
            node.pause()
        codes = [node.finish(began + timeout) for node in nodes]
        run = {"name": name, "hostnames": False, "bring_up_s": cluster.bring_up_s,
               "timeout_s": timeout}
        for node in nodes:
            run[f"{node.host.name}_agent_exit_s"] = elapsed(node.ended, began)
        run["elapsed_s"] = time.monotonic() - began
        run["hosts"] = [node.entry(code) for node, code in zip(nodes, codes)]
        return run


def c10d_hostname(workdir: Path) -> list[dict]:
    """The c10d launch, rendezvous endpoint by address, on hosts that share this machine's host
    name and hosts file, mended one address at a time: which agent hosts the rendezvous store
    (``--rdzv-conf=is_host=1`` on node0), the address an agent gives its workers as
    ``MASTER_ADDR`` (``--local-addr``), gloo's own address (``GLOO_SOCKET_IFNAME``). The step
    that hangs runs with ``LOGLEVEL=INFO``, which shows the address the workers were given."""
    def argv(*, is_host: bool, local_addr: bool, env: tuple[str, ...]) -> Callable[[Host], list[str]]:
        def command(host: Host) -> list[str]:
            conf = [f"--rdzv-conf=is_host={int(host.index == 0)}"] if is_host else []
            addr = [f"--local-addr={host.address}"] if local_addr else []
            return [*(["env", *env] if env else []), "torchrun", "--nnodes=2", "--nproc-per-node=2",
                    "--rdzv-backend=c10d", "--rdzv-endpoint=198.18.0.1:29400", "--rdzv-id=job42",
                    *conf, *addr, "train.py"]
        return command

    return [
        timed_run("no_store_host", workdir, argv(is_host=False, local_addr=False, env=()), 150),
        timed_run("is_host", workdir, argv(is_host=True, local_addr=False, env=("LOGLEVEL=INFO",)),
                  HANG_TIMEOUT_S),
        timed_run("local_addr", workdir, argv(is_host=True, local_addr=True, env=()), 90),
        timed_run("local_addr_ifname", workdir,
                  argv(is_host=True, local_addr=True, env=("GLOO_SOCKET_IFNAME=eth0",)), 90),
    ]
