"""A real Slurm on a virtual cluster: ``slurmctld`` on the first host, one ``slurmd`` per host,
authenticated by ``munge``, so that batch scripts (``sbatch`` -> ``srun`` -> ``torchrun``) run
across the hosts as on a real cluster::

    from ranktest.cluster import Cluster
    from ranktest.cluster.slurm import Slurm

    with Cluster(hosts=2) as cluster, Slurm(cluster) as slurm:
        print(slurm.srun(["-N2", "hostname"]).stdout)    # node0, node1
        job = slurm.run_batch(SCRIPT, cwd=workdir, timeout=120)
        assert job.state == "COMPLETED", job.output

Each node states its memory (:data:`MEMORY_MB`, so ``--mem`` can be met) and
:data:`GPUS_PER_NODE` GPUs that Slurm schedules as counts on the :data:`GPU_PARTITION`
partition (``sbatch -p gpu --gpus-per-node=2``): the allocation is real, the devices are not.

Each host's ``/etc/slurm`` is the cluster's own (``ip netns exec`` bind-mounts
``/etc/netns/NS/slurm``), so ``sbatch``, ``srun`` and ``scontrol`` on a host need no
``SLURM_CONF``. Logs, spool and state live in the cluster's state directory; the daemons run in
the hosts' namespaces, so closing the cluster stops them too. Needs the distribution's
``slurm-wlm`` and ``munge`` (Debian and Ubuntu package names); :func:`unavailable` says when
they are missing.
"""

from __future__ import annotations

import dataclasses
import os
import re
import secrets
import signal
import shutil
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path

from ranktest import _procs as procs
from ranktest.cluster import Cluster, ClusterError
from ranktest.cluster._net import NETNS_ETC
from ranktest.cluster._slurm_conf import GPU_PARTITION, GPUS_PER_NODE, MEMORY_MB, cgroup_conf, gres_conf, slurm_conf

__all__ = ["BatchJob", "GPU_PARTITION", "GPUS_PER_NODE", "MEMORY_MB", "Slurm", "unavailable"]

#: Seconds the daemons may take to start and register every node.
START_TIMEOUT_S = 60.0
_DONE = ("COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY",
         "PREEMPTED", "BOOT_FAIL", "DEADLINE")
_TOOLS = ("slurmctld", "slurmd", "slurmstepd", "sbatch", "srun", "scontrol", "sinfo", "munged")


def unavailable() -> str | None:
    """Why Slurm cannot run on a virtual cluster here (naming the fix), or ``None``."""
    path = f"{os.environ.get('PATH', '')}:/usr/sbin:/usr/bin"  # the daemons are in sbin
    missing = [tool for tool in _TOOLS if shutil.which(tool, path=path) is None]
    if missing:
        return (f"Slurm is not installed (no {', '.join(missing)}): install the distribution's "
                f"Slurm and munge packages (Debian, Ubuntu: apt-get install slurm-wlm munge, as root)")
    if not os.path.isdir("/etc/slurm"):
        return ("no /etc/slurm to mount each host's configuration on: the distribution's "
                "slurm-wlm package makes it (apt-get install slurm-wlm, as root)")
    return None


def _comm(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return ""


@dataclasses.dataclass(frozen=True)
class BatchJob:
    """A finished batch job: its id, final ``state`` (``COMPLETED``, ``FAILED``, ...),
    ``exit_code`` (``"0:0"``: status and signal), ``nodes`` (expanded host names) and what its
    script printed (``output``: stdout and stderr, from ``sbatch --output``)."""

    id: int
    state: str
    exit_code: str
    nodes: tuple[str, ...]
    output: str


class Slurm:
    """Slurm daemons on ``cluster`` (started, so its hosts exist): munged and slurmctld on the
    first host, a slurmd on every host, one partition (``partition``) with all of them, each
    host offering ``cpus`` CPUs (default: this machine's). A context manager; :meth:`close`
    stops the daemons (closing the cluster does too)."""

    def __init__(self, cluster: Cluster, *, partition: str = "debug", cpus: int | None = None):
        if cluster.hostnames is False:
            raise ClusterError("Slurm needs a cluster whose hosts have names (hostnames=True)")
        self.cluster, self.partition = cluster, partition
        self.cpus = cpus or os.cpu_count() or 1
        self.dir = cluster.state_dir / "slurm"
        self.munge_socket = self.dir / "munge" / "munge.socket"
        self._daemons: list[subprocess.Popen] = []
        self.start_s: float | None = None

    def __enter__(self) -> Slurm:
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def config(self) -> str:
        """The ``slurm.conf`` every host gets."""
        return slurm_conf(self.cluster.hosts, state=self.dir, munge_socket=self.munge_socket,
                          cpus=self.cpus, partition=self.partition)

    def start(self) -> None:
        """Write the configuration, start munged, slurmctld and the slurmds, and wait until every
        node is idle; on failure, stop them and raise :class:`ClusterError` with their logs."""
        if reason := unavailable():
            raise ClusterError(reason)
        began = time.monotonic()
        (self.dir / "munge").mkdir(parents=True, mode=0o711)  # munged: clients need x
        key = self.dir / "munge" / "munge.key"
        key.write_bytes(secrets.token_bytes(1024))
        key.chmod(0o400)
        for host in self.cluster.hosts:
            etc = NETNS_ETC / host.namespace / "slurm"
            etc.mkdir(parents=True, exist_ok=True)
            (etc / "slurm.conf").write_text(self.config())
            (etc / "cgroup.conf").write_text(cgroup_conf())
            (etc / "gres.conf").write_text(gres_conf(self.dir / "gpus"))
            (etc / "plugstack.conf").write_text("")
            (self.dir / f"slurmd-{host.name}").mkdir()
        (self.dir / "slurmctld").mkdir()
        (self.dir / "gpus").mkdir()
        for index in range(GPUS_PER_NODE):
            (self.dir / "gpus" / f"gpu{index}").touch()
        head = self.cluster.hosts[0]
        try:
            m = self.dir / "munge"
            # --force: the socket's directory is inside the root-only state directory, which
            # munged finds inaccessible to other users; every client here runs as root.
            self._daemon(head, "munged", ["munged", "--foreground", "--force", f"--key-file={key}",
                                          f"--socket={self.munge_socket}", f"--pid-file={m}/munged.pid",
                                          f"--log-file={m}/munged.log", f"--seed-file={m}/munged.seed"])
            self._wait_for(lambda: self.munge_socket.exists(), "munged to open its socket")
            self._daemon(head, "slurmctld", ["slurmctld", "-D", "-c"])
            self._wait_for(lambda: "UP" in head.run(["scontrol", "ping"], timeout=10).stdout,
                           "slurmctld to answer `scontrol ping`")
            for host in self.cluster.hosts:
                self._daemon(host, f"slurmd-{host.name}", ["slurmd", "-D", "-N", host.name])
            self._wait_for(self._all_idle, "every node to be idle in `sinfo`")
        except BaseException:
            self.close()
            raise
        self.start_s = time.monotonic() - began

    def _daemon(self, host, name: str, argv: list[str]) -> None:
        with open(self.dir / f"{name}.console", "w") as out:
            self._daemons.append(host.popen(argv, stdout=out, cwd=self.dir))

    def _wait_for(self, ready, what: str, timeout: float = START_TIMEOUT_S) -> None:
        deadline = time.monotonic() + timeout
        while not ready():
            dead = [d.args for d in self._daemons if d.poll() is not None]
            if dead or time.monotonic() > deadline:
                why = f"a daemon exited: {dead[0][-4:]}" if dead else f"not after {timeout:.0f} s"
                raise ClusterError(f"Slurm did not start: waiting for {what}, {why}\n{self.logs()}")
            time.sleep(0.1)

    def _all_idle(self) -> bool:
        states = self.node_states()
        return len(states) == len(self.cluster.hosts) and all(s == "idle" for s in states.values())

    def node_states(self) -> dict[str, str]:
        """Each node's state as ``sinfo`` reports it (``idle``, ``alloc``, ``down*``, ...)."""
        out = self.cluster.hosts[0].run(["sinfo", "-h", "-N", "-o", "%N %t"], timeout=10).stdout
        return dict(line.split() for line in out.splitlines() if len(line.split()) == 2)

    def logs(self, tail: int = 2000) -> str:
        """The end of every daemon's log file, for error reports."""
        files = sorted(self.dir.glob("*.log")) + sorted(self.dir.glob("*.console"))
        files += sorted((self.dir / "munge").glob("*.log"))
        return "\n".join(f"--- {f.name}:\n{f.read_text(errors='replace')[-tail:]}" for f in files)

    def close(self) -> None:
        """Stop every daemon (SIGKILL: nothing of theirs needs to survive the cluster)."""
        for proc in self._daemons:
            if proc.poll() is None:
                proc.kill()
            proc.wait()
        tree = procs.children()
        for host in self.cluster.hosts:  # job steps outlive slurmd: kill each slurmstepd's tree
            todo = [pid for pid in host.processes() if _comm(pid) == "slurmstepd"]
            while todo:
                pid = todo.pop()
                procs.send(pid, signal.SIGKILL)
                todo.extend(tree.get(pid, []))
        self._daemons.clear()

    def srun(self, args: Sequence[str], *, host: int = 0, timeout: float = 60.0,
             env: dict[str, str] | None = None, cwd=None) -> subprocess.CompletedProcess:
        """``srun ARGS`` on host ``host`` (stdout and stderr together in ``stdout``)."""
        return self.cluster.hosts[host].run(["srun", *args], timeout=timeout, env=env, cwd=cwd)

    def sbatch(self, script: str, *, args: Sequence[str] = (), host: int = 0, cwd=None,
               env: dict[str, str] | None = None) -> int:
        """Submit the batch script ``script`` (its text) from host ``host``, with ``sbatch``
        options ``args``; returns the job id."""
        path = self.dir / f"script-{time.monotonic_ns()}.sh"
        path.write_text(script)
        done = self.cluster.hosts[host].run(["sbatch", "--parsable", *args, str(path)],
                                            timeout=30, env=env, cwd=cwd)
        if done.returncode != 0 or not done.stdout.strip().split(";")[0].isdigit():
            raise ClusterError(f"sbatch failed ({done.returncode}): {done.stdout}")
        return int(done.stdout.strip().split(";")[0])

    def job(self, job_id: int) -> dict[str, str]:
        """``scontrol show job JOB_ID`` as a dict (``JobState``, ``ExitCode``, ``NodeList``...)."""
        shown = self.cluster.hosts[0].run(["scontrol", "show", "job", "-o", str(job_id)], timeout=10)
        return dict(re.findall(r"(\w+)=(\S*)", shown.stdout))

    def wait(self, job_id: int, timeout: float = 120.0) -> dict[str, str]:
        """Wait until the job ends; returns :meth:`job`'s fields. On timeout, cancels the job and
        raises :class:`ClusterError` with the daemons' logs."""
        deadline = time.monotonic() + timeout
        while (fields := self.job(job_id)).get("JobState") not in _DONE:
            if time.monotonic() > deadline:
                self.cluster.hosts[0].run(["scancel", str(job_id)], timeout=10)
                raise ClusterError(f"job {job_id} still {fields.get('JobState')} after "
                                   f"{timeout:.0f} s (cancelled)\n{self.logs()}")
            time.sleep(0.2)
        return fields

    def run_batch(self, script: str, *, args: Sequence[str] = (), cwd=None, timeout: float = 120.0,
                  env: dict[str, str] | None = None) -> BatchJob:
        """Submit ``script``, wait for it and return the finished :class:`BatchJob` (whatever its
        state: check ``job.state``)."""
        out_dir = self.dir / "jobs"
        out_dir.mkdir(exist_ok=True)
        job_id = self.sbatch(script, args=[f"--output={out_dir}/%j.out", *args], cwd=cwd, env=env)
        fields = self.wait(job_id, timeout)
        nodes = self.cluster.hosts[0].run(
            ["scontrol", "show", "hostnames", fields.get("NodeList", "")], timeout=10).stdout.split()
        output = out_dir / f"{job_id}.out"
        return BatchJob(job_id, fields["JobState"], fields.get("ExitCode", ""), tuple(nodes),
                        output.read_text(errors="replace") if output.exists() else "")
