"""The c10d error types, and which one a rank really gets when something times out.

DistError derives from RuntimeError; DistBackendError, DistNetworkError and DistStoreError derive
from DistError. Three failures, each caught on one rank: a store wait() that times out raises
DistStoreError; a TCPStore client that cannot reach its server raises DistNetworkError; a gloo
all_reduce() whose group timeout (set with dist.set_timeout) runs out raises a plain
RuntimeError, not a DistError. torch also logs warnings about the store failures on stderr; the
example captures them and only says whether there were any.

Run: torchrun --standalone --nproc-per-node=2 dist_errors.py
Timeout: 60
"""
import os
import re
import socket
import sys
import tempfile
from datetime import timedelta

import torch
import torch.distributed as dist

dist.init_process_group("gloo")
rank = dist.get_rank()
impatient = dist.new_group()  # every rank creates it; only rank 1 uses it below
dist.set_timeout(timedelta(seconds=1), impatient)  # instead of the default 30 minutes


def stderr_of(call):
    """Run call(); return the exception it raised and what it wrote to stderr (C++ included)."""
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as capture:
        os.dup2(capture.fileno(), 2)
        try:
            call()
            error = None
        except RuntimeError as exc:
            error = exc
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        capture.seek(0)
        return error, capture.read().decode()


def report(what, error, log, port=None):
    text = re.sub(r"\[/[^\]]*\] ", "", str(error).splitlines()[0])  # build-machine source path
    if port is not None:
        text = text.replace(str(port), "PORT")  # a different free port on every run
    print(f"{what}: {type(error).__name__}: {text}")
    print(f"  isinstance DistError: {isinstance(error, dist.DistError)}; logged on stderr: "
          f"{bool(log)}")


if rank == 0:
    for error_type in (dist.DistBackendError, dist.DistNetworkError, dist.DistStoreError,
                       dist.QueueEmptyError):
        parents = [cls.__name__ for cls in error_type.__mro__[1:-2]]
        print(f"{error_type.__name__} -> {' -> '.join(parents)}")
    print(f"issubclass(DistError, RuntimeError): {issubclass(dist.DistError, RuntimeError)}")
    print("issubclass(DistStoreError, DistError): "
          f"{issubclass(dist.DistStoreError, dist.DistError)}")

    with socket.socket() as probe:  # find a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    error, log = stderr_of(lambda: dist.TCPStore("127.0.0.1", port, is_master=False,
                                                 timeout=timedelta(seconds=1)))
    report("TCPStore client, no server", error, log, port)
else:
    store = dist.TCPStore(os.environ["MASTER_ADDR"], int(os.environ["MASTER_PORT"]),
                          is_master=False, timeout=timedelta(seconds=30))
    error, log = stderr_of(lambda: store.wait(["never_set"], timedelta(seconds=1)))
    report("store.wait, key never set", error, log)

    # 0 never joins
    error, log = stderr_of(lambda: dist.all_reduce(torch.ones(1), group=impatient))
    report("all_reduce, peer never joins", error, log)

del impatient, error  # the exception's traceback holds the group too
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
