"""The warm process: imports torch once, then forks one process per rank for each run.

Started by :class:`ranktest.Forkserver` as ``python -m ranktest._server``; it speaks one JSON
object per line on its standard input and output (``ranktest._protocol``: a ``Ready`` once,
then a ``Done`` for each ``RunRequest``). It never touches CUDA or a process group itself (forking
after either is unsafe); every rank, the rendezvous store and the capability probe are forked
children, which die with the server (``PR_SET_PDEATHSIG``).
"""

from __future__ import annotations

import gc
import json
import os
import signal
import subprocess
import sys

from ranktest import _procs as procs
from ranktest import _protocol as protocol
from ranktest._watch import Run, read_pipe

#: Set while the server imports its preload: ``torch.cuda.is_available()`` then asks NVML how many
#: GPUs there are instead of initializing CUDA. ``torch.utils.cpp_extension`` asks it at import
#: where a CUDA toolkit is installed; the CUDA runtime's answer would initialize CUDA in the
#: server, and every rank forked from it could then never use a GPU ("Cannot re-initialize CUDA
#: in forked subprocess"). Without NVML (a machine with no NVIDIA driver) torch falls back to
#: the runtime, which leaves no GPU to lose.
NVML_CHECK = "PYTORCH_NVML_BASED_CUDA_CHECK"


def _probe(write_fd: int) -> int:
    try:
        caps = _capabilities()
    except Exception as exc:  # noqa: BLE001 - the reason goes back to the client
        caps = {"refused": f"the capability probe failed: {type(exc).__name__}: {exc}"}
    os.write(write_fd, json.dumps(caps).encode())
    return 0


def _capabilities() -> dict:
    import torch
    import torch.distributed as dist

    backends = {}
    names = [name for name in dist.Backend.backend_list if name != dist.Backend.UNDEFINED] if dist.is_available() else []
    for name in names:
        check = getattr(dist, f"is_{name}_available", None)
        backends[name] = bool(dist.is_available() and check is not None and check())
    caps = {"torch": torch.__version__, "cuda_devices": torch.cuda.device_count(), "backends": backends}
    if caps["cuda_devices"]:
        if torch.cuda._is_in_bad_fork():  # this child is forked from the server, as every rank is
            preload = os.environ.get("RANKTEST_PRELOAD", "torch")
            return {"refused": f"CUDA was initialized in the server while it imported its preload "
                               f"({preload}), so no rank forked from it can use the "
                               f"{caps['cuda_devices']} GPU(s) here ('Cannot re-initialize CUDA in "
                               f"forked subprocess'); preload fewer modules (Forkserver(preload=...)), "
                               f"leaving out the one that calls torch.cuda at import"}
        caps["gpu"] = _gpu(torch)
    return caps


def _gpu(torch) -> dict[str, str]:
    """What the CUDA devices are (this child may initialize CUDA: the server never does)."""
    nccl = torch.cuda.nccl.version() if torch.distributed.is_nccl_available() else ""
    return {"model": torch.cuda.get_device_name(0), "driver": _driver_version(),
            "cuda": torch.version.cuda or "",
            "nccl": ".".join(map(str, nccl)) if isinstance(nccl, tuple) else str(nccl)}


def _driver_version() -> str:
    """The NVIDIA driver's version, as ``nvidia-smi`` reports it ("" where it cannot)."""
    try:
        done = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                              capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    lines = done.stdout.split()
    return lines[0] if done.returncode == 0 and lines else ""


def probe() -> dict:
    """What torch can do, asked in a forked child (CUDA is never initialized in the server), or
    ``{"refused": reason}`` when ranks could not run here."""
    read_fd, write_fd = os.pipe()
    pid = procs.fork(lambda: _probe(write_fd))
    os.close(write_fd)
    data = read_pipe(read_fd)
    os.waitpid(pid, 0)
    return json.loads(data)


def main() -> None:
    procs.die_with_parent()
    procs.become_subreaper()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the client decides when to stop
    requests = os.fdopen(os.dup(0), "rb")
    replies = os.dup(1)
    protocol_fds = [requests.fileno(), replies]
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    os.dup2(2, 1)  # stray prints must not corrupt the protocol

    nvml_check = os.environ.get(NVML_CHECK)
    os.environ[NVML_CHECK] = "1"
    for module in filter(None, os.environ.get("RANKTEST_PRELOAD", "torch").split(",")):
        __import__(module)
    if nvml_check is None:  # the ranks get the environment the client gave the server
        os.environ.pop(NVML_CHECK, None)
    else:
        os.environ[NVML_CHECK] = nvml_check
    # What the preload made is shared, read-only, by every rank: out of the collector's reach
    # (gc.freeze), so a rank's collections and its teardown check's walk over every object
    # (ranktest.exitcheck) see the script's own objects only, not torch's few hundred thousand.
    gc.collect()
    gc.freeze()

    def reply(message: protocol.Ready | protocol.Refused | protocol.Done) -> None:
        os.write(replies, protocol.encode(message))

    caps = probe()
    if "refused" in caps:
        reply(protocol.Refused(caps["refused"]))
        os._exit(0)
    reply(protocol.Ready(**caps))
    for line in requests:
        request = protocol.decode(line)
        done = Run(request, protocol_fds).watch(requests.fileno())
        procs.kill_orphans()  # what a rank started in a session of its own and left behind
        reply(done)
    # Nothing is left to do: every rank was reaped, every reply written. Ending here skips the
    # interpreter's teardown of torch (about half a second, and with the preload frozen some
    # extension modules, nanobind's among them, report the objects they still see as leaks).
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
