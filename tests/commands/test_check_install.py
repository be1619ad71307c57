"""The install check run by ``make``: the pinned torch exactly, and a CUDA build is accepted on a
machine without a driver (PyPI's Linux build runs the CPU variants there)."""

from __future__ import annotations

import importlib.metadata
import re
import subprocess
import sys

from tests.support.paths import REPO

CHECK_MODULE = "refsite.commands.check_install"
PINNED = re.search(r"^TORCH \?= (\S+)$", (REPO / "Makefile").read_text(), re.M).group(1)


def run_check(wanted: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", CHECK_MODULE, wanted], capture_output=True, text=True, timeout=60)


def test_the_pinned_torch_is_installed_and_accepted() -> None:
    installed = importlib.metadata.version("torch")
    assert installed.split("+")[0] == PINNED, f"torch {installed} in this environment, the Makefile pins {PINNED}"
    result = run_check(PINNED)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"torch {installed} installed")


def test_a_cuda_build_on_a_driverless_machine_says_so_in_one_line() -> None:
    cuda = [d for d in importlib.metadata.distributions() if d.metadata["Name"].lower().startswith("nvidia-")]
    result = run_check(PINNED)
    assert len(result.stdout.splitlines()) == 1
    if cuda:
        assert "CUDA build" in result.stdout, result.stdout
    else:
        assert "CUDA" not in result.stdout, result.stdout


def test_another_version_is_refused_with_the_fix() -> None:
    result = run_check("2.4.1")
    assert result.returncode == 1
    assert "TORCH=2.4.1 was asked for; remove .venv and run make again" in result.stderr
