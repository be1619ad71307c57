"""The project's Python passes its linter, ruff, with the rules ``pyproject.toml`` states
(``[tool.ruff]``: unused imports and names, undefined names, syntax errors, shared default
arguments); and a planted unused import is found, so the check can fail."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.paths import REPO


def ruff() -> str:
    found = Path(sys.executable).with_name("ruff")
    if found.exists():
        return str(found)
    if (other := shutil.which("ruff")) is None:
        pytest.fail("ruff is not installed: it is in requirements.txt (make venv installs it)", pytrace=False)
    return other


def test_the_project_passes_its_linter() -> None:
    done = subprocess.run([ruff(), "check", "--output-format", "concise", "--no-cache", "."], cwd=REPO,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"ruff found problems (fix them, or `ruff check --fix`):\n{done.stdout}{done.stderr}"


def test_a_planted_unused_import_is_found(tmp_path: Path) -> None:
    shutil.copy(REPO / "pyproject.toml", tmp_path / "pyproject.toml")
    (tmp_path / "tooling").mkdir()
    (tmp_path / "tooling" / "planted.py").write_text("import os\n\n\ndef f(x=[]):\n    return x\n")
    done = subprocess.run([ruff(), "check", "--output-format", "concise", "--no-cache", "."], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "F401" in done.stdout and "B006" in done.stdout, done.stdout
