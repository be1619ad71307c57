"""``ranktest`` as a reader gets it: installed alone into a fresh virtual environment, used from a
project outside this repository through its ``forkserver`` fixture and public API only.

The new environment sees torch and pytest (linked from this one, as if installed there) and the
``ranktest`` wheel built from this checkout; nothing of the project's own tooling.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
import textwrap
import venv
from pathlib import Path

import pytest

from tests.support.paths import REPO

pytestmark = pytest.mark.slow


#: What a reader's environment has besides ranktest: torch and what it needs, pytest and numpy.
#: Everything else in this environment (the project's tooling, Sphinx, pytest plugins) stays out.
_PROJECT_ONLY = ("ranktest", "__editable__", "_ranktest", "refsite", "verified_reference_site", "snippet",
                 "site_languages", "verified_snippets", "lang_switch", "zh_search", "xdist",
                 "pytest_xdist", "execnet", "pytest_timeout", "sphinx", "myst", "autodoc2")

TRAIN = '''\
import os
import torch
import torch.distributed as dist

dist.init_process_group("gloo")
rank = dist.get_rank()
if os.environ.get("BREAK_RANK") == str(rank):
    raise RuntimeError(f"rank {rank} ran out of data")
t = torch.tensor([rank + 1.0])
dist.all_reduce(t)
print(f"rank {rank}: sum {t.item()}")
dist.destroy_process_group()
'''

USER_TESTS = '''\
from pathlib import Path

import pytest
from ranktest import RankFailure

TRAIN = Path(__file__).with_name("train.py")


def test_every_rank_sums(forkserver):
    result = forkserver.run(TRAIN, world_size=2, timeout=60).check()
    assert [r.stdout for r in result.ranks] == ["rank 0: sum 3.0\\n", "rank 1: sum 3.0\\n"]


def test_a_broken_rank_is_named(forkserver):
    result = forkserver.run(TRAIN, world_size=2, timeout=60, env={"BREAK_RANK": "1"})
    with pytest.raises(RankFailure, match="rank 1 failed first"):
        result.check()


def test_a_broken_rank_fails_the_test(forkserver):
    forkserver.run(TRAIN, world_size=2, timeout=60, env={"BREAK_RANK": "1"}).check()
'''


@pytest.fixture(scope="module")
def reader_env(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment with the ranktest wheel installed; returns its python."""
    root = tmp_path_factory.mktemp("reader")
    # Built from a copy of what the package is made of: a build writes ranktest.egg-info and
    # build/ beside the sources, and the repository must not change under the running suite.
    source = root / "source"
    shutil.copytree(REPO / "src", source / "src", ignore=shutil.ignore_patterns("*.egg-info", "__pycache__"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, source / name)
    wheels = root / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                    "-w", str(wheels), str(source)], check=True, capture_output=True, text=True)
    [wheel] = wheels.glob("ranktest-*.whl")
    env_dir = root / "venv"
    venv.create(env_dir, with_pip=False)
    python = env_dir / "bin" / "python"
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                               check=True, capture_output=True, text=True).stdout.strip())
    here = Path(sysconfig.get_path("purelib"))
    for entry in here.iterdir():
        if not entry.name.lower().startswith(_PROJECT_ONLY) and not entry.name.endswith(".pth"):
            (site / entry.name).symlink_to(entry)
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps",
                    "--no-index", str(wheel)], check=True, capture_output=True, text=True)
    return python


def test_a_project_outside_the_repository_uses_the_fixture(reader_env: Path, tmp_path: Path):
    project = tmp_path / "project"
    project.mkdir()
    (project / "train.py").write_text(TRAIN)
    (project / "test_train.py").write_text(textwrap.dedent(USER_TESTS))
    done = subprocess.run([str(reader_env), "-m", "pytest", "-v", "-p", "no:cacheprovider"], cwd=project,
                          capture_output=True, text=True, timeout=300)
    out = done.stdout
    assert "test_every_rank_sums PASSED" in out, out + done.stderr
    assert "test_a_broken_rank_is_named PASSED" in out, out
    assert "test_a_broken_rank_fails_the_test FAILED" in out, out
    # The failure names the rank and quotes its traceback, from the user's own script.
    assert "train.py on 2 rank(s): rank 1 failed first (exit code 1)" in out, out
    assert "RuntimeError: rank 1 ran out of data" in out and 'train.py", line 8' in out, out
    assert "1 failed, 2 passed" in out, out
    # The package alone: none of the project's tooling is importable there.
    probe = subprocess.run([str(reader_env), "-c", "import refsite"], capture_output=True, text=True)
    assert probe.returncode != 0 and "No module named 'refsite'" in probe.stderr
