"""The reaper: a small process that removes one virtual cluster when its owner goes away.

:class:`ranktest.cluster.Cluster` starts it before making any namespace, in a session of its own
(a signal to the owner's process group does not reach it), with a pipe on its stdin whose other
end only the owner holds. It reads until end of file, which comes when the owner closes the
cluster or dies in any way (an exception, SIGKILL, ``os._exit`` of a timed-out pytest), then
removes the cluster (:func:`ranktest.cluster._net.remove_cluster`) and exits.
"""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

from ranktest.cluster._net import REAPER_MARK, ClusterError, remove_cluster

#: Seconds the reaper may spend removing a cluster.
REMOVE_TIMEOUT_S = 60


def start(cluster_id: str) -> subprocess.Popen:
    """Start the reaper of ``cluster_id``; the returned process's stdin is the owner's end of
    the pipe (close it to let the reaper go)."""
    package_parent = str(Path(__file__).resolve().parents[2])  # the folder that holds ranktest
    code = (f"import sys; sys.path.insert(0, {package_parent!r}); "
            "from ranktest.cluster._reaper import main; main()")
    return subprocess.Popen(
        [sys.executable, "-c", code, REAPER_MARK, cluster_id], stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        close_fds=True,
    )


def main() -> None:
    """The reaper process: wait for end of file on stdin, then remove the cluster named last on
    the command line."""
    for sig in (signal.SIGINT, signal.SIGHUP, signal.SIGTERM):
        signal.signal(sig, signal.SIG_IGN)  # the owner's end of the pipe decides, nothing else
    cluster_id = sys.argv[-1]
    while sys.stdin.buffer.read(4096):
        pass
    signal.alarm(REMOVE_TIMEOUT_S)
    try:
        remove_cluster(cluster_id)
    except ClusterError:
        sys.exit(1)  # the next cluster started on this machine removes it as stale
