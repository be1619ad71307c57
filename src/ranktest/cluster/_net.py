"""The virtual cluster's plumbing: whether this machine can run one (:func:`unavailable`),
running ``ip``, finding the processes of a network namespace, and removing a cluster's
namespaces, files and processes (:func:`remove_cluster`), which the cluster, its reaper and the
stale-run sweep (:func:`remove_stale`) all use; :func:`leftovers` lists what is left, for tests.

Every name the cluster makes starts with :data:`PREFIX` followed by the owner's pid and a
sequence number (``ranktest-4242-0``); its host namespaces add the host name
(``ranktest-4242-0-node0``) and its switch ``-sw``. Nothing here touches the machine's own
network: every ``ip`` command names a namespace of the cluster.
"""

from __future__ import annotations

import functools
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

from ranktest import _procs as procs

#: The first part of every namespace, state directory and ``/etc/netns`` entry of a cluster.
PREFIX = "ranktest-"
#: Where ``ip netns`` keeps its namespaces, and the per-namespace ``/etc`` files it bind-mounts.
NETNS_RUN = Path("/run/netns")
NETNS_ETC = Path("/etc/netns")
#: Each cluster's own files (configuration, logs, sockets), one directory per cluster.
STATE_ROOT = Path("/run/ranktest-cluster")
#: Seconds any one ``ip``/``tc`` command may take.
IP_TIMEOUT_S = 15.0


class ClusterError(RuntimeError):
    """The virtual cluster could not be built, used or removed; the message names the fix."""


@functools.cache
def unavailable() -> str | None:
    """Why this machine cannot run a virtual cluster (a sentence naming the fix), or ``None``.
    Probed once per process (it makes and deletes a namespace)."""
    if not os.path.exists("/proc/self/ns/net"):
        return "no network namespaces: needs Linux with CONFIG_NET_NS (/proc/self/ns/net is missing)"
    if os.geteuid() != 0:
        return "needs root (network namespaces, veth links, ip netns): run the tests as root"
    for tool, package in (("ip", "iproute2"), ("unshare", "util-linux"), ("hostname", "hostname")):
        if shutil.which(tool) is None:
            return f"no `{tool}` command: install {package}"
    probe = f"{PREFIX}{os.getpid()}-probe-ns"  # removed as stale if ever left
    made = subprocess.run(["ip", "netns", "add", probe], capture_output=True, text=True, timeout=15)
    subprocess.run(["ip", "netns", "delete", probe], capture_output=True, timeout=15)
    if made.returncode != 0:
        return (f"cannot create a network namespace (`ip netns add` says: {made.stderr.strip()}); "
                "in a container, run it with CAP_SYS_ADMIN and CAP_NET_ADMIN (--privileged)")
    return None


def ip(*args: str, timeout: float = IP_TIMEOUT_S, check: bool = True) -> subprocess.CompletedProcess:
    """Run ``ip ARGS`` (``tc ARGS`` when the first argument is ``"tc"``), with a timeout."""
    argv = list(args) if args[0] == "tc" else ["ip", *args]
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as exc:
        raise ClusterError(f"`{' '.join(argv)}` took more than {timeout:.0f} s") from exc
    if check and proc.returncode != 0:
        raise ClusterError(f"`{' '.join(argv)}` failed ({proc.returncode}): {proc.stderr.strip()}")
    return proc


def namespaces() -> list[str]:
    """The names of every network namespace ``ip netns`` knows (``/run/netns``)."""
    try:
        return sorted(entry.name for entry in NETNS_RUN.iterdir())
    except FileNotFoundError:
        return []


def _inode(path: str | Path) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


def pids_in(namespace: str) -> list[int]:
    """Every live process whose network namespace is ``namespace`` (however it got there: started
    by the cluster, a daemon's fork, a job step), found by comparing namespace inodes in /proc."""
    target = _inode(NETNS_RUN / namespace)
    if target is None:
        return []
    found = []
    for entry in Path("/proc").iterdir():
        pid = int(entry.name) if entry.name.isdigit() else 0
        if pid and _inode(entry / "ns" / "net") == target and procs.alive(pid):
            found.append(pid)
    return found


def kill_namespace(namespace: str, sig: int = signal.SIGKILL, timeout: float = 10.0) -> list[int]:
    """Send ``sig`` to every process of ``namespace``; with SIGKILL, repeat until none is left
    (a process may fork while it is being killed). Returns the pids signalled."""
    signalled: list[int] = []
    deadline = time.monotonic() + timeout
    while pids := pids_in(namespace):
        for pid in pids:
            procs.send(pid, sig)
        signalled.extend(p for p in pids if p not in signalled)
        if sig != signal.SIGKILL:
            break
        if time.monotonic() > deadline:
            raise ClusterError(f"processes {pids} of namespace {namespace} survive SIGKILL")
        time.sleep(0.02)
    return signalled


def owner_of(cluster_id: str) -> int | None:
    """The pid in a cluster id (``ranktest-PID-SEQ``), or ``None`` for a foreign name."""
    parts = cluster_id[len(PREFIX):].split("-")
    return int(parts[0]) if cluster_id.startswith(PREFIX) and parts[0].isdigit() else None


def start_time(pid: int) -> str | None:
    """The start time of ``pid`` (``/proc/PID/stat`` field 22), which tells a reused pid apart."""
    fields = procs.stat_fields(pid)
    return fields[19] if fields else None


def owner_alive(cluster_id: str) -> bool:
    """Whether the process that made ``cluster_id`` still runs (pid and start time both match
    the ``owner`` file the cluster wrote; the pid alone when that file is missing)."""
    pid = owner_of(cluster_id)
    if pid is None or not procs.alive(pid):
        return False
    try:
        recorded = (STATE_ROOT / cluster_id / "owner").read_text().split()
    except OSError:
        return True
    return recorded == [str(pid), start_time(pid) or ""]


def cluster_ids() -> set[str]:
    """The ids of every cluster with something left on this machine: a namespace, an
    ``/etc/netns`` entry or a state directory."""
    names = [*namespaces(), *_listdir(NETNS_ETC), *_listdir(STATE_ROOT)]
    ids = set()
    for name in names:
        if owner_of(name) is not None:
            ids.add("-".join(name.split("-")[:3]))
    return ids


def _listdir(path: Path) -> list[str]:
    try:
        return [entry.name for entry in path.iterdir()]
    except FileNotFoundError:
        return []


def make_dir(path: Path, mode: int = 0o755) -> None:
    """``mkdir -p`` that survives a parent being removed meanwhile (:func:`remove_cluster` of
    another cluster removes ``/etc/netns`` or the state root once they are empty)."""
    for attempt in range(5):
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.mkdir(mode=mode, exist_ok=True)
            return
        except FileNotFoundError:
            if attempt == 4:
                raise


def remove_cluster(cluster_id: str) -> None:
    """Remove everything of one cluster, in this order: its processes (SIGKILL, every namespace),
    its namespaces (the switch's last: deleting it deletes the links), its ``/etc/netns`` files
    and its state directory. Idempotent; safe to run from several processes at once."""
    mine = [ns for ns in namespaces() if ns.startswith(cluster_id + "-")]
    mine.sort(key=lambda ns: ns.endswith("-sw"))
    errors = []
    for ns in mine:
        try:
            kill_namespace(ns)
        except ClusterError as exc:
            errors.append(str(exc))
    for ns in mine:
        proc = ip("netns", "delete", ns, check=False)
        if proc.returncode != 0 and (NETNS_RUN / ns).exists():
            errors.append(f"ip netns delete {ns}: {proc.stderr.strip()}")
    for name in _listdir(NETNS_ETC):
        if name.startswith(cluster_id + "-"):
            shutil.rmtree(NETNS_ETC / name, ignore_errors=True)
    shutil.rmtree(STATE_ROOT / cluster_id, ignore_errors=True)
    for empty in (NETNS_ETC, STATE_ROOT):
        try:
            empty.rmdir()  # only if empty: another cluster may be using it
        except OSError:
            pass
    if errors:
        raise ClusterError(f"could not remove cluster {cluster_id}: " + "; ".join(errors))


def remove_stale() -> list[str]:
    """Remove every cluster whose owner process is gone (an earlier run that crashed or was
    killed before its reaper finished); returns their ids."""
    stale = sorted(cid for cid in cluster_ids() if not owner_alive(cid))
    for cluster_id in stale:
        remove_cluster(cluster_id)
    return stale


def leftovers(owner: int | None = None) -> dict[str, list]:
    """What the virtual clusters (of process ``owner``, or all) left on this machine: namespaces,
    ``/etc/netns`` entries, state directories, processes in those namespaces, and reapers still
    running. Every list is empty when nothing is left. For tests."""
    def ours(name: str) -> bool:
        return owner_of(name) is not None and owner in (None, owner_of(name))

    mine = [ns for ns in namespaces() if ours(ns)]
    return {
        "namespaces": mine,
        "etc_netns": [n for n in _listdir(NETNS_ETC) if ours(n)],
        "state_dirs": [n for n in _listdir(STATE_ROOT) if ours(n)],
        "processes": [pid for ns in mine for pid in pids_in(ns)],
        "reapers": [pid for pid in reapers() if owner is None or ours((_cmdline(pid) or [""])[-1])],
    }


def _cmdline(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace").split("\0")[:-1]
    except OSError:
        return []


def reapers() -> list[int]:
    """The pids of every running cluster reaper (:mod:`ranktest.cluster._reaper`)."""
    return [int(e.name) for e in Path("/proc").iterdir()
            if e.name.isdigit() and REAPER_MARK in _cmdline(int(e.name)) and procs.alive(int(e.name))]


#: An argument every reaper's command line carries, by which :func:`reapers` finds them.
REAPER_MARK = "--ranktest-cluster-reaper"
