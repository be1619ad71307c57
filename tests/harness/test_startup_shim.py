"""The start-up shim that gives torchrun workers the exit check (``ranktest.exitcheck``) runs
the ``sitecustomize`` it hides, instead of silently replacing it."""

from __future__ import annotations

import os
import subprocess
import sys

from ranktest.exitcheck import STARTUP_DIR, startup_env

SHOW = "import sys; print('imported:', sys.modules['sitecustomize'].__file__)"


def _run(env: dict[str, str]) -> list[str]:
    done = subprocess.run([sys.executable, "-c", SHOW], env=env, capture_output=True, text=True,
                          timeout=60, check=True)
    assert done.stderr == ""
    return done.stdout.splitlines()


def test_the_shim_runs_the_sitecustomize_it_hides(tmp_path):
    (tmp_path / "sitecustomize.py").write_text("print('the hidden sitecustomize ran')\n")
    env = startup_env({**os.environ, "PYTHONPATH": str(tmp_path), "RANK": "0"})
    assert env["PYTHONPATH"].split(os.pathsep) == [str(STARTUP_DIR), str(tmp_path)]
    assert _run(env) == ["the hidden sitecustomize ran",
                         f"imported: {STARTUP_DIR / 'sitecustomize.py'}"]


def test_without_another_sitecustomize_the_shim_alone_runs(tmp_path):
    env = startup_env({**os.environ, "PYTHONPATH": str(tmp_path), "RANK": "0"})
    assert _run(env) == [f"imported: {STARTUP_DIR / 'sitecustomize.py'}"]


def test_the_shim_imports_no_more_than_the_exit_check():
    # Every worker of a launch starts with the shim: importing ranktest's client there cost about
    # 80 ms a process. It loads the check from its file, and nothing else of ranktest.
    code = "import sys; print(sorted(m for m in sys.modules if 'ranktest' in m))"
    done = subprocess.run([sys.executable, "-c", code], env=startup_env(dict(os.environ)),
                          capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout == "['_ranktest_exitcheck']\n", done.stdout
