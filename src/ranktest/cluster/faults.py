"""Faults on a virtual cluster's links: a pulled cable (:meth:`Link.down` / :meth:`Link.up`), a
slow link (:meth:`Link.limit_rate`, ``tc tbf``), and delay and packet loss with ``tc netem``
(:meth:`Link.impair`) where the kernel has it (:func:`netem_unavailable` says why not). A host's processes are killed with
:meth:`ranktest.cluster.Host.kill`.

Every command here runs inside the cluster's own namespaces (the host's, or the switch's), never
in the machine's.
"""

from __future__ import annotations

from typing import Protocol

from ranktest.cluster._net import ClusterError, ip


class LinkedHost(Protocol):
    """What a link needs of its host (a :class:`ranktest.cluster.Host`): its network namespace.
    (A protocol, not the class: ``cluster`` imports this module, not the other way round.)"""

    namespace: str


_netem_reason: dict[str, str | None] = {}


def netem_unavailable(namespace: str) -> str | None:
    """Why ``tc netem`` cannot be used (probed once, on the loopback device of ``namespace``, a
    namespace of a running cluster), or ``None`` when it can."""
    if "reason" not in _netem_reason:
        added = ip("tc", "-n", namespace, "qdisc", "add", "dev", "lo", "root", "netem", "delay", "1ms",
                   check=False)
        if added.returncode == 0:
            ip("tc", "-n", namespace, "qdisc", "del", "dev", "lo", "root", check=False)
            _netem_reason["reason"] = None
        else:
            _netem_reason["reason"] = (
                "tc netem is not available: this kernel has no sch_netem (`tc qdisc add ... netem` "
                f"says: {added.stderr.strip()}); load it with `modprobe sch_netem` or use a kernel "
                "built with CONFIG_NET_SCH_NETEM")
    return _netem_reason["reason"]


class Link:
    """The link between a host and the cluster's switch: ``host_end`` (``eth0`` in the host's
    namespace) and ``switch_end`` (a port of the switch's bridge)."""

    def __init__(self, host: LinkedHost, switch: str, switch_end: str, host_end: str):
        self.host, self.switch, self.switch_end, self.host_end = host, switch, switch_end, host_end

    def down(self) -> None:
        """Pull the cable: the switch's port goes down, so nothing reaches the host or leaves it.
        The host keeps its address and routes and sees only a lost carrier, as with a real
        unplugged cable or a failed switch port: open TCP connections get no error, they time
        out."""
        ip("-n", self.switch, "link", "set", self.switch_end, "down")

    def up(self) -> None:
        """Plug the cable back in."""
        ip("-n", self.switch, "link", "set", self.switch_end, "up")

    def is_up(self) -> bool:
        """Whether the switch's port is up."""
        shown = ip("-n", self.switch, "-o", "link", "show", self.switch_end).stdout
        return ",UP" in shown or "<UP" in shown

    def impair(self, *, delay_ms: float = 0, jitter_ms: float = 0, loss_percent: float = 0) -> None:
        """Delay and drop packets on this link, both ways (``tc netem`` on both ends: a
        round trip to the host takes ``2 * delay_ms`` more). Raises :class:`ClusterError` naming
        the fix where the kernel has no netem. :meth:`clear` undoes it."""
        if reason := netem_unavailable(self.switch):
            raise ClusterError(reason)
        spec = ["delay", f"{delay_ms}ms"] + ([f"{jitter_ms}ms"] if jitter_ms else [])
        spec += ["loss", f"{loss_percent}%"] if loss_percent else []
        for namespace, dev in ((self.host.namespace, self.host_end), (self.switch, self.switch_end)):
            ip("tc", "-n", namespace, "qdisc", "replace", "dev", dev, "root", "netem", *spec)

    def limit_rate(self, rate_mbit: float, *, burst_kbit: float = 32, latency_ms: float = 50) -> None:
        """Make this link a slow one: at most ``rate_mbit`` megabits (10**6 bits) per second each
        way (``tc tbf`` on both ends, so it needs no netem). ``burst_kbit``: how much may leave at
        once, line rate; ``latency_ms``: how long a packet may wait for its turn before it is
        dropped (TCP then sends it again, slower). Replaces an :meth:`impair`; :meth:`clear`
        undoes it."""
        if rate_mbit <= 0:
            raise ValueError(f"rate_mbit must be positive, not {rate_mbit}")
        spec = ["rate", f"{rate_mbit * 1000:g}kbit", "burst", f"{burst_kbit:g}kbit",
                "latency", f"{latency_ms:g}ms"]
        for namespace, dev in ((self.host.namespace, self.host_end), (self.switch, self.switch_end)):
            ip("tc", "-n", namespace, "qdisc", "replace", "dev", dev, "root", "tbf", *spec)

    def clear(self) -> None:
        """Remove the delay and loss of :meth:`impair` and the limit of :meth:`limit_rate`
        (nothing happens if there were none)."""
        for namespace, dev in ((self.host.namespace, self.host_end), (self.switch, self.switch_end)):
            ip("tc", "-n", namespace, "qdisc", "del", "dev", dev, "root", check=False)
