"""One rank: a forked child of the server that becomes the script's process.

It runs in its own session (so its descendants can be killed together), writes stdout/stderr
straight into files at the descriptor level, dumps every thread's Python stack on ``SIGUSR1``,
gets torchrun's environment, and runs the script as ``python SCRIPT`` would.
"""

from __future__ import annotations

import faulthandler
import os
import runpy
import signal
import sys
import time
import traceback
import warnings
from pathlib import Path

from ranktest import _protocol as protocol


def failure_file(outdir: str, rank: int) -> Path:
    """Where a failing rank writes the time it failed (read by :mod:`ranktest._watch`)."""
    return Path(outdir, f"rank{rank}.failed_at")


def output_file(outdir: str, rank: int, stream: str) -> Path:
    """Where a rank's ``stdout`` or ``stderr`` goes."""
    return Path(outdir, f"rank{rank}.{stream}")


def torchrun_env(rank: int, world_size: int, port: int, run_id: str) -> dict[str, str]:
    """The variables torchrun gives a worker on a single node, pointed at the run's store."""
    env = {
        "RANK": rank, "LOCAL_RANK": rank, "WORLD_SIZE": world_size, "LOCAL_WORLD_SIZE": world_size,
        "GROUP_RANK": 0, "GROUP_WORLD_SIZE": 1, "ROLE_RANK": rank, "ROLE_WORLD_SIZE": world_size,
        "ROLE_NAME": "default", "MASTER_ADDR": "127.0.0.1", "MASTER_PORT": port,
        "TORCHELASTIC_USE_AGENT_STORE": "True", "TORCHELASTIC_RESTART_COUNT": 0,
        "TORCHELASTIC_MAX_RESTARTS": 0, "TORCHELASTIC_RUN_ID": run_id,
    }
    return {k: str(v) for k, v in env.items()}


def _redirect(outdir: str, rank: int, close_fds: list[int]) -> None:
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    os.dup2(os.open(output_file(outdir, rank, "stdout"), flags, 0o600), 1)
    os.dup2(os.open(output_file(outdir, rank, "stderr"), flags, 0o600), 2)
    for fd in close_fds:
        os.close(fd)
    sys.stdout.reconfigure(line_buffering=True)  # keep what was printed just before a crash
    sys.stderr.reconfigure(line_buffering=True)
    faulthandler.enable(file=sys.stderr, all_threads=True)
    faulthandler.register(signal.SIGUSR1, file=sys.stderr, all_threads=True)


def run_rank(req: protocol.RunRequest, rank: int, port: int | None, close_fds: list[int]) -> int:
    """Set this forked process up as ``rank`` of the request, run the script, return its exit code."""
    os.setsid()
    _redirect(req.outdir, rank, close_fds)
    env = dict(req.env)
    if port is not None:
        env.update(torchrun_env(rank, req.world_size, port, req.run_id))
    os.environ.clear()
    os.environ.update(env)
    import torch

    if "OMP_NUM_THREADS" in env:
        torch.set_num_threads(int(env["OMP_NUM_THREADS"]))
    if req.strict_warnings:  # as `python -W error::DeprecationWarning -W error::FutureWarning`
        warnings.filterwarnings("error", category=DeprecationWarning)
        warnings.filterwarnings("error", category=FutureWarning)
    teardown_errors: list[str] = []
    if port is not None and req.check_teardown:
        from ranktest import _teardown as teardown

        teardown_errors = teardown.watch()
    code = _run_script(req.argv, req.cwd)
    if code == 0 and port is not None and req.check_teardown and torch.distributed.is_initialized():
        from ranktest._teardown import NOT_DESTROYED

        teardown_errors.append(NOT_DESTROYED)
    for error in teardown_errors:
        print(f"error: {error}", file=sys.stderr)
        code = code or 1
    if code != 0:  # before this process exits, so before any peer can fail because of it
        failure_file(req.outdir, rank).write_text(repr(time.monotonic()))
    return code


def _run_script(argv: list[str], cwd: str) -> int:
    """Run ``argv[0]`` as ``python`` runs a script (its directory first on the import path,
    ``sys.argv`` set, ``__main__``); return its exit code."""
    os.chdir(cwd)
    script = argv[0]
    sys.argv = list(argv)
    sys.path[0] = os.path.dirname(os.path.abspath(script))  # what `python SCRIPT` puts there
    try:
        runpy.run_path(script, run_name="__main__")
    except SystemExit as exc:
        if exc.code is None:
            return 0
        if not isinstance(exc.code, int):
            print(exc.code, file=sys.stderr)
            return 1
        return exc.code
    except BaseException as exc:  # noqa: BLE001 - the script's own error, shown as python would
        _print_script_traceback(exc, script)
        return 1
    return 0


def _print_script_traceback(exc: BaseException, script: str) -> None:
    """Print the traceback from the script's first frame on, without the harness's own frames."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename != script:
        tb = tb.tb_next
    traceback.print_exception(type(exc), exc, tb or exc.__traceback__)
