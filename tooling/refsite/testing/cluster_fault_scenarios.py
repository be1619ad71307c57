"""The fault scenarios of ``measure_cluster``: a node killed mid-training, a link taken down
mid-collective, ``GLOO_SOCKET_IFNAME`` right and wrong, the c10d launch on hosts that share
one host name and its three fixes, on a 2-host virtual cluster
(:mod:`ranktest.cluster`). Each runs the scripts of ``snippets/multinode/`` the way a reader
runs them and times the fault from outside: every output line is stamped as it arrives, so a
run records when the fault was made, when node0 first reported it and when its ``torchrun``
exited. What torchrun printed is condensed (:func:`cluster_output.condense`).
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path

from ranktest.cluster import Cluster, Host
from ranktest.torchrun import kill_tree
from refsite.testing import cluster_output
from refsite.testing.cluster_scenarios import HANG_TIMEOUT_S, node_env, run_torchrun, static_argv

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


def fault_run(name: str, workdir: Path, fault: Callable[[Cluster], None]) -> dict:
    """``train_steps.py`` on 2 hosts x 2 ranks; after step 2, ``fault(cluster)``; then every
    node ends (or is killed after :data:`END_TIMEOUT_S`)."""
    with Cluster(hosts=2) as cluster:
        began = time.monotonic()
        nodes = [Watched(h, static_argv(h, script="train_steps.py"), workdir) for h in cluster.hosts]
        nodes[0].wait_for(FAULT_AFTER, START_TIMEOUT_S)
        time.sleep(FAULT_DELAY_S)
        made = time.monotonic()
        fault(cluster)
        codes = [node.finish(made + END_TIMEOUT_S) for node in nodes]
        run = {"name": name, "bring_up_s": cluster.bring_up_s, "fault_at_s": made - began,
               "timeout_s": END_TIMEOUT_S}
        for node in nodes:
            if node.host.index == 0 or codes[node.host.index] != -9:  # a killed node reports nothing
                run[f"{node.host.name}_detection_s"] = elapsed(node.first(FAILED, made), made)
                run[f"{node.host.name}_agent_exit_s"] = elapsed(node.ended, made)
        run["elapsed_s"] = time.monotonic() - began
        run["hosts"] = [node.entry(code) for node, code in zip(nodes, codes)]
        return run


def node_killed(workdir: Path) -> list[dict]:
    """Every process of node1 killed (SIGKILL, as in a crash) after step 2."""
    return [fault_run("node_killed", workdir, lambda cluster: cluster.hosts[1].kill())]


def link_down(workdir: Path) -> list[dict]:
    """node1's cable pulled after step 2: no process dies, no connection is closed."""
    return [fault_run("link_down", workdir, lambda cluster: cluster.hosts[1].link.down())]


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
