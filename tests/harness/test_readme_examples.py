"""The cluster and Slurm examples of ``src/ranktest/README.md`` run exactly as written: their
files are extracted from the README (each block starts with ``# <file name>``) and run by pytest
in a directory of their own, with the installed plugin's ``cluster`` fixture."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from refsite.testing.machine import cannot_run
from ranktest import cluster
from ranktest.cluster import slurm
from tests.support.paths import REPO

if reason := cluster.unavailable() or slurm.unavailable():
    cannot_run(f"the README's cluster examples: {reason}", module=True)

pytestmark = pytest.mark.slow

README = REPO / "src" / "ranktest" / "README.md"


def readme_files() -> dict[str, str]:
    """Every python block of the README that names its file on its first line."""
    blocks = re.findall(r"```python\n# (\S+\.py)\n(.*?)```", README.read_text(encoding="utf-8"), re.DOTALL)
    return {name: body for name, body in blocks}


def test_the_readme_names_the_cluster_examples() -> None:
    assert set(readme_files()) >= {"train.py", "test_two_nodes.py", "test_slurm_job.py"}


def test_the_readme_cluster_examples_run_as_written(tmp_path: Path) -> None:
    for name, body in readme_files().items():
        (tmp_path / name).write_text(body, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "pytest", "-v", "-p", "no:cacheprovider",
                           "test_two_nodes.py", "test_slurm_job.py"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=400)
    out = done.stdout + done.stderr
    assert done.returncode == 0, out[-4000:]
    assert "test_two_nodes PASSED" in out and "test_a_batch_job PASSED" in out, out[-4000:]
