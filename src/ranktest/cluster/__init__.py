"""A virtual cluster on one Linux machine: N hosts, each a network namespace with its own address,
host name and hosts file, joined on one switch, for testing multi-node launches (``torchrun
--nnodes``, Slurm) without a second machine::

    from ranktest.cluster import Cluster
    from ranktest.torchrun import torchrun_argv  # this environment's torchrun

    with Cluster(hosts=2) as cluster:
        node0, node1 = cluster.hosts
        print(node1.run(["hostname"]).stdout)           # node1
        results = cluster.run_each(lambda host: torchrun_argv(["--nnodes=2", ...]), timeout=120)

Each host is a network namespace; its addresses come from 198.18.0.0/15 (reserved for network
tests, RFC 2544), the switch is a bridge in a namespace of its own, and nothing is added to the
machine's own network namespace. A command on a host runs under ``ip netns exec`` (which
bind-mounts the host's ``/etc/netns/NAME/hosts``) in a UTS namespace carrying the host's name,
so ``hostname``, ``socket.getfqdn()`` and every process it starts see that host. Faults:
``host.link`` (:class:`ranktest.cluster.faults.Link`) and :meth:`Host.kill`.

Teardown: :meth:`Cluster.close` (the ``with`` block's end, on success or on any exception)
kills every process of every namespace, deletes the namespaces and removes the cluster's files.
If the owning process dies without closing (SIGKILL, ``os._exit``), the cluster's reaper
(:mod:`ranktest.cluster._reaper`) does the same; clusters left by a crashed run whose reaper did
not finish are removed when the next cluster starts, or by ``python -m ranktest.cluster.cleanup
--clean``. Needs root, ``ip`` (iproute2) and
``unshare`` (util-linux); :func:`unavailable` says why a machine cannot run it.

The package is the virtual cluster and what belongs to it: :mod:`ranktest.cluster.faults` (a
host's link), :mod:`ranktest.cluster.slurm` (a real Slurm booted on the cluster's hosts, for
tests), :mod:`ranktest.cluster.cleanup` (what crashed clusters left); ``_net``, ``_reaper`` and
``_slurm_conf`` are its plumbing.
"""

from __future__ import annotations

import ipaddress
import itertools
import os
import re
import signal
import subprocess
import time
from collections.abc import Callable, Sequence

from ranktest.cluster import _net as cluster_net, _reaper as cluster_reaper
from ranktest.cluster.faults import Link
from ranktest.cluster._net import NETNS_ETC, STATE_ROOT, ClusterError, ip, unavailable
from ranktest.torchrun import clean_env, kill_tree

__all__ = ["Cluster", "ClusterError", "ClusterTimeout", "Host", "unavailable"]

#: The block the hosts' addresses come from by default (198.18.0.0/15 is reserved for tests).
DEFAULT_SUBNET = "198.18.0.0/24"
#: Seconds a command on a host may take when the caller does not say.
DEFAULT_TIMEOUT_S = 60.0
#: The one place a command gets its host: a UTS namespace whose host name is ``$0``.
_SET_HOSTNAME = 'hostname "$0" && exec "$@"'
_sequence = itertools.count()


class ClusterTimeout(ClusterError):
    """Commands on the hosts ran past their timeout (they were killed); ``results`` holds what
    each printed, with ``returncode`` ``None`` for those still running at the deadline."""

    def __init__(self, message: str, results: list[subprocess.CompletedProcess]):
        super().__init__(message)
        self.results = results


class Host:
    """One host of a :class:`Cluster`: ``name`` (its host name), ``address`` (on the cluster's
    link), ``namespace`` (its network namespace), ``index`` (0 for the first host) and ``link``
    (its link to the switch, for faults: :class:`ranktest.cluster.faults.Link`)."""

    def __init__(self, cluster: Cluster, index: int, name: str, address: str):
        self.cluster, self.index, self.name, self.address = cluster, index, name, address
        self.namespace = f"{cluster.id}-{name}"
        self.link = Link(self, cluster.switch, f"h{index}", "eth0")

    def __repr__(self) -> str:
        return f"Host({self.name!r}, {self.address!r})"

    def argv(self, argv: Sequence[str]) -> list[str]:
        """The command line that runs ``argv`` on this host (for a ``Popen`` of your own)."""
        if not self.cluster.hostnames:
            return ["ip", "netns", "exec", self.namespace, *argv]
        return ["ip", "netns", "exec", self.namespace, "unshare", "--uts", "--",
                "sh", "-c", _SET_HOSTNAME, self.name, *argv]

    def popen(self, argv: Sequence[str], *, env: dict[str, str] | None = None,
              cwd: str | os.PathLike | None = None, **kwargs) -> subprocess.Popen:
        """Start ``argv`` on this host; stdout and stderr go to one text pipe unless ``kwargs``
        say otherwise. ``env`` defaults to this process's environment without the variables a
        launcher sets (``RANK``, ``MASTER_ADDR``, ...); one given is used as it is. Killed at
        the latest when the cluster closes."""
        kwargs.setdefault("stdout", subprocess.PIPE)
        kwargs.setdefault("stderr", subprocess.STDOUT)
        kwargs.setdefault("text", True)
        proc = subprocess.Popen(self.argv(argv), env=clean_env(dict(os.environ)) if env is None else env,
                                cwd=cwd, stdin=kwargs.pop("stdin", subprocess.DEVNULL), **kwargs)
        self.cluster._started.append(proc)
        return proc

    def run(self, argv: Sequence[str], *, timeout: float = DEFAULT_TIMEOUT_S,
            env: dict[str, str] | None = None, cwd: str | os.PathLike | None = None,
            check: bool = False) -> subprocess.CompletedProcess:
        """Run ``argv`` on this host and wait for it; ``stdout`` holds its stdout and stderr
        together. On timeout, its process tree is killed and :class:`ClusterTimeout` raised.
        ``check``: raise :class:`ClusterError` with its output when it exits non-zero."""
        return self.cluster.run_each(lambda host: argv, hosts=[self], timeout=timeout, env=env,
                                     cwd=cwd, check=check)[0]

    def kill(self, sig: int = signal.SIGKILL) -> list[int]:
        """Send ``sig`` to every process on this host, as if the machine crashed (SIGKILL) or
        were shut down (SIGTERM); returns their pids. The host itself stays up."""
        return cluster_net.kill_namespace(self.namespace, sig)

    def processes(self) -> list[int]:
        """The pids of every process running on this host."""
        return cluster_net.pids_in(self.namespace)


class Cluster:
    """``hosts`` hosts (a number, named ``node0``, ``node1``, ...; or a list of names) on one
    switch, with addresses from ``subnet`` (the first host gets the first address).

    ``hostnames=False`` gives the hosts no names of their own: they keep this machine's host
    name and hosts file, which is what a launch that relies on per-node host names gets wrong
    (use the hosts' addresses then). A context manager; :meth:`start` and :meth:`close` do the
    same by hand. ``state_dir`` is a private directory of the cluster's, removed with it."""

    def __init__(self, hosts: int | Sequence[str] = 2, *, subnet: str = DEFAULT_SUBNET,
                 hostnames: bool = True):
        names = [f"node{i}" for i in range(hosts)] if isinstance(hosts, int) else list(hosts)
        bad = [n for n in names if not re.fullmatch(r"[a-z][a-z0-9-]{0,30}", n) or n == "sw"]
        if bad or len(set(names)) != len(names):
            raise ValueError(f"host names must be distinct, lower-case letters, digits and '-', "
                             f"starting with a letter, not 'sw': {names}")
        network = ipaddress.ip_network(subnet)
        if not 1 <= len(names) <= min(network.num_addresses - 2, 250):
            raise ValueError(f"{len(names)} hosts do not fit in {subnet}")
        if not network.subnet_of(ipaddress.ip_network("198.18.0.0/15")):
            raise ValueError(f"{subnet} is not inside 198.18.0.0/15, the block reserved for tests")
        self.id = f"{cluster_net.PREFIX}{os.getpid()}-{next(_sequence)}"
        self.switch = f"{self.id}-sw"
        self.subnet, self.hostnames = network, hostnames
        self.state_dir = STATE_ROOT / self.id
        addresses = itertools.islice(network.hosts(), len(names))
        self.hosts = [Host(self, i, name, str(a)) for i, (name, a) in enumerate(zip(names, addresses))]
        self._started: list[subprocess.Popen] = []
        self._reaper: subprocess.Popen | None = None
        self.bring_up_s: float | None = None

    def __enter__(self) -> Cluster:
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __getitem__(self, key: int | str) -> Host:
        """A host by index or by name."""
        if isinstance(key, int):
            return self.hosts[key]
        return next(h for h in self.hosts if h.name == key)

    def hosts_file(self) -> str:
        """The hosts file every host gets: localhost, and each host's name with its address.

        Each address also appears in its IPv4-mapped IPv6 form (``::ffff:198.18.0.2``), under
        a name of its own (``node1.v4mapped``): a dual-stack socket sees a peer in that form,
        and ``torch.distributed``'s TCP store warns (``The hostname of the client socket cannot
        be retrieved``) when its reverse look-up fails, which DNS would answer and a plain
        hosts file does not. Under the host's own name, the forward look-up would return both
        forms, and a connection would try the same host twice."""
        lines = ["127.0.0.1\tlocalhost", "::1\tlocalhost ip6-localhost ip6-loopback"]
        lines += [f"{h.address}\t{h.name}" for h in self.hosts]
        lines += [f"::ffff:{h.address}\t{h.name}.v4mapped" for h in self.hosts]
        return "\n".join(lines) + "\n"

    def start(self) -> None:
        """Remove stale clusters, start the reaper, then make the switch and the hosts; on any
        failure everything made so far is removed before the error is raised."""
        if self._reaper is not None:
            return
        if reason := unavailable():
            raise ClusterError(reason)
        began = time.monotonic()
        cluster_net.remove_stale()
        cluster_net.make_dir(self.state_dir, mode=0o700)
        pid = os.getpid()
        (self.state_dir / "owner").write_text(f"{pid} {cluster_net.start_time(pid)}\n")
        self._reaper = cluster_reaper.start(self.id)
        try:
            self._make_network()
        except BaseException:
            self.close()
            raise
        self.bring_up_s = time.monotonic() - began

    def _make_network(self) -> None:
        ip("netns", "add", self.switch)
        ip("-n", self.switch, "link", "add", "br0", "type", "bridge")
        ip("-n", self.switch, "link", "set", "br0", "up")
        prefix = self.subnet.prefixlen
        for host in self.hosts:
            etc = NETNS_ETC / host.namespace
            cluster_net.make_dir(etc)
            if self.hostnames:
                (etc / "hosts").write_text(self.hosts_file())
            # No name server inside: look-ups fail at once instead of waiting for one.
            (etc / "resolv.conf").write_text("# ranktest virtual cluster: no DNS, see hosts\n")
            ip("netns", "add", host.namespace)
            ip("-n", self.switch, "link", "add", host.link.switch_end, "type", "veth",
               "peer", "name", "eth0", "netns", host.namespace)
            ip("-n", self.switch, "link", "set", host.link.switch_end, "master", "br0", "up")
            ip("-n", host.namespace, "address", "add", f"{host.address}/{prefix}", "dev", "eth0")
            ip("-n", host.namespace, "link", "set", "eth0", "up")
            ip("-n", host.namespace, "link", "set", "lo", "up")

    def close(self) -> None:
        """Kill every process on every host, delete the namespaces and the cluster's files, and
        let the reaper go. Idempotent; raises :class:`ClusterError` if something survives."""
        reaper, self._reaper = self._reaper, None
        try:
            cluster_net.remove_cluster(self.id)
        finally:
            for proc in self._started:
                if proc.poll() is None:
                    kill_tree(proc)
                proc.wait()
                for pipe in (proc.stdout, proc.stderr):
                    if pipe is not None:
                        pipe.close()
            self._started.clear()
            if reaper is not None:
                reaper.stdin.close()
                try:
                    reaper.wait(timeout=cluster_reaper.REMOVE_TIMEOUT_S)
                except subprocess.TimeoutExpired:
                    reaper.kill()
                    reaper.wait()

    def run_each(self, argv: Callable[[Host], Sequence[str]] | Sequence[str], *,
                 hosts: Sequence[Host] | None = None, timeout: float = DEFAULT_TIMEOUT_S,
                 env: dict[str, str] | None = None, cwd: str | os.PathLike | None = None,
                 check: bool = False) -> list[subprocess.CompletedProcess]:
        """Run a command on each host at once (``argv``, or ``argv(host)`` for a command per
        host; ``hosts`` picks some, default all) and wait for all of them, at most ``timeout``
        seconds in all. Each result's ``stdout`` holds that host's stdout and stderr. On timeout
        every command still running is killed with its process tree and :class:`ClusterTimeout`
        raised; ``check`` raises :class:`ClusterError` naming each host that exited non-zero."""
        hosts = self.hosts if hosts is None else list(hosts)
        argvs = [list(argv(h) if callable(argv) else argv) for h in hosts]
        logs = [self.state_dir / f"run-{next(_sequence)}-{h.name}.log" for h in hosts]
        started = []
        for host, args, log in zip(hosts, argvs, logs):
            with open(log, "w") as out:  # a file, not a pipe: no host blocks on a full pipe
                started.append(host.popen(args, env=env, cwd=cwd, stdout=out))
        deadline = time.monotonic() + timeout
        results, late = [], []
        for host, args, proc, log in zip(hosts, argvs, started, logs):
            try:
                proc.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                kill_tree(proc)
                late.append(host.name)
            code = None if host.name in late else proc.returncode
            results.append(subprocess.CompletedProcess(args, code, log.read_text(errors="replace"), ""))
            log.unlink()
        if late:
            raise ClusterTimeout(f"still running after {timeout:.0f} s on {', '.join(late)} "
                                 f"(killed):\n{_report(hosts, results)}", results)
        failed = [h.name for h, r in zip(hosts, results) if r.returncode != 0]
        if check and failed:
            raise ClusterError(f"failed on {', '.join(failed)}:\n{_report(hosts, results)}")
        return results


def _report(hosts: Sequence[Host], results: list[subprocess.CompletedProcess]) -> str:
    return "\n".join(f"--- {h.name} (exit {r.returncode}): {' '.join(map(str, r.args))}\n"
                     f"{r.stdout[-3000:]}" for h, r in zip(hosts, results))
