"""Scripts for the harness's own tests: each rank writes its pid to ``$PID_DIR/rank<N>`` first,
so a test can tell afterwards whether any process outlived the run."""

from __future__ import annotations

import textwrap
from pathlib import Path

from ranktest import Forkserver
from ranktest._procs import alive


#: "Within a few seconds": the bound every failure report must arrive in.
FAST_S = 6.0

PRELUDE = """\
import os, sys, time, pathlib
import torch
import torch.distributed as dist
rank = int(os.environ["RANK"])
pathlib.Path(os.environ["PID_DIR"], f"rank{rank}").write_text(str(os.getpid()))
"""


def script(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "case.py"
    path.write_text(PRELUDE + textwrap.dedent(body))
    return path


def pids_in(directory: Path) -> list[int]:
    return [int(p.read_text()) for p in directory.iterdir() if p.read_text()]


def run(server: Forkserver, tmp_path: Path, body: str, world_size: int = 2, timeout: float = 30,
        check_teardown: bool = False):
    """Run ``body`` after PRELUDE as a distributed script; assert no process outlives it."""
    pid_dir = tmp_path / "pids"
    pid_dir.mkdir()
    result = server.run(script(tmp_path, body), world_size, env={"PID_DIR": str(pid_dir)},
                        timeout=timeout, distributed=True, check_teardown=check_teardown)
    survivors = [pid for pid in pids_in(pid_dir) if alive(pid)]
    assert not survivors, f"processes left running: {survivors}"
    return result
