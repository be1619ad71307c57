"""See and remove what virtual clusters left on this machine::

    python -m ranktest.cluster.cleanup            # list every cluster with something left
    python -m ranktest.cluster.cleanup --clean    # remove those whose owner process is gone

A cluster (:mod:`ranktest.cluster`) removes itself when its ``with`` block ends, and its reaper
does so when the owning process dies; only when the reaper is killed too (or the machine's
``/run`` outlives both) do its namespaces (and their mounts under ``/run/netns``), its
``/etc/netns`` entries, its state directory and the processes inside it stay, until the next
cluster starts and sweeps them. This is the same sweep, on demand. A cluster whose owner still
runs is listed and never removed. Needs root, as the clusters do.
"""

from __future__ import annotations

import argparse
import os
import sys

from ranktest.cluster import _net as cluster_net


def describe(cluster_id: str) -> str:
    """One line: the cluster, its owner, and what it holds on this machine."""
    left = cluster_net.leftovers(cluster_net.owner_of(cluster_id))
    mine = {kind: [x for x in found if not isinstance(x, str) or x.startswith(cluster_id + "-") or x == cluster_id]
            for kind, found in left.items()}
    owner = "running" if cluster_net.owner_alive(cluster_id) else "gone"
    return (f"{cluster_id}: owner pid {cluster_net.owner_of(cluster_id)} {owner}; "
            f"{len(mine['namespaces'])} namespace(s), {len(mine['processes'])} process(es) in them, "
            f"{len(mine['etc_netns'])} /etc/netns entr(ies), {len(mine['state_dirs'])} state dir(s), "
            f"{len(mine['reapers'])} reaper(s)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ranktest.cluster.cleanup",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--clean", action="store_true",
                        help="remove every cluster whose owner process is gone")
    args = parser.parse_args(argv)
    if os.geteuid() != 0:
        print("error: run it as root: the clusters' namespaces and files belong to root", file=sys.stderr)
        return 2
    ids = sorted(cluster_net.cluster_ids())
    if not ids:
        print("no virtual cluster has anything left on this machine")
        return 0
    for cluster_id in ids:
        print(describe(cluster_id))
    if args.clean:
        removed = cluster_net.remove_stale()
        print(f"removed {len(removed)} cluster(s) whose owner is gone: {', '.join(removed) or 'none'}")
        if kept := [cid for cid in ids if cid not in removed]:
            print(f"kept {len(kept)} whose owner still runs: {', '.join(kept)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
