"""``make doctest TORCH=system`` as on a GPU runner: an interpreter with its own torch (not the
pin), its own pytest plugin that warns while pytest configures itself (as pytest-benchmark does
under xdist), and no network; the runner's packages come from a wheelhouse brought along.

The snippet items are collected and run, and the summary names the torch that ran and what the
compat measurement of that release already says of a CPU variant that failed there."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.paths import REPO

#: Not the pin, and measured by make compat (docs/measurements/compat/torch-2.13.0.json):
#: tensors/asarray_sharing.py [cpu] fails there, tensors/device.py [cpu] prints the record.
RUNNER_TORCH = "2.13.0"
SNIPPETS = "snippets/tensors/asarray_sharing.py snippets/tensors/device.py"

NOISY_PLUGIN = '''
import warnings
import pytest

@pytest.hookimpl(trylast=True)
def pytest_configure(config):
    warnings.warn(pytest.PytestWarning("Benchmarks are automatically disabled because xdist plugin is active."))
'''


def _run(command: list[str], **kwargs) -> subprocess.CompletedProcess:
    done = subprocess.run(command, capture_output=True, text=True, **kwargs)
    assert done.returncode == 0, f"{command}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


def _runner_python(where: Path) -> Path:
    """A Python with torch RUNNER_TORCH and a pytest plugin of its own, as a GPU image has."""
    _run([getattr(sys, "_base_executable", sys.executable), "-m", "venv", str(where)])
    python = where / "bin" / "python"
    _run([str(python), "-m", "pip", "install", "--quiet", f"torch=={RUNNER_TORCH}"])
    site = Path(_run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).stdout.strip())
    (site / "noisy_gpu_plugin.py").write_text(NOISY_PLUGIN)
    dist_info = site / "noisy_gpu_plugin-1.0.dist-info"  # installed the way pip leaves a plugin
    dist_info.mkdir()
    (dist_info / "METADATA").write_text("Metadata-Version: 2.1\nName: noisy-gpu-plugin\nVersion: 1.0\n")
    (dist_info / "entry_points.txt").write_text("[pytest11]\nnoisy_gpu = noisy_gpu_plugin\n")
    return python


def _checkout_copy(where: Path) -> Path:
    files = _run(["git", "ls-files", "-co", "--exclude-standard"], cwd=REPO).stdout.splitlines()
    for name in files:
        if (REPO / name).is_file():
            (where / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, where / name)
    return where


@pytest.mark.slow
def test_make_doctest_runs_on_a_runners_own_torch_offline(tmp_path):
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        pytest.skip("needs root and unshare, to run make doctest in a network namespace with no network")
    python = _runner_python(tmp_path / "runner")
    wheelhouse = tmp_path / "wheelhouse"
    checkout = _checkout_copy(tmp_path / "checkout")
    _run(["make", "wheelhouse", f"WHEELHOUSE={wheelhouse}"], cwd=checkout)
    # No network from here on: a namespace with only its loopback interface up.
    make = (f"ip link set lo up && make doctest TORCH=system PYTHON={python} WHEELHOUSE={wheelhouse} "
            f"SNIPPETS='{SNIPPETS}' PYTEST_ARGS='-n 2 -p no:cacheprovider'")
    done = subprocess.run(["unshare", "--net", "sh", "-c", make], cwd=checkout, capture_output=True,
                          text=True, timeout=900)
    out = done.stdout + done.stderr
    assert done.returncode != 0, out  # asarray_sharing fails on 2.13, as its compat result says
    assert f"torch {RUNNER_TORCH}" in out and "not installed, not checked against the pin" in out, out
    assert "1 failed, 1 passed" in out, out  # both collected and run, under xdist
    assert "Benchmarks are automatically disabled because xdist plugin is active" in out, out
    assert (f"torch {RUNNER_TORCH}+cpu ran the snippets, not the pin" in out
            or f"torch {RUNNER_TORCH} ran the snippets, not the pin" in out), out
    assert (f"tensors/asarray_sharing.py [cpu]: docs/measurements/compat/torch-{RUNNER_TORCH}.json "
            f"already shows it: fails: ValueError" in out), out
