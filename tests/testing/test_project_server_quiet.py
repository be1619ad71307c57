"""The project's forkserver starts without a word on a machine with a CUDA toolkit and no GPU:
preloading ``torch.utils.cpp_extension`` there logs "No CUDA runtime is found", which would reach
the terminal of every test session, and neither the server nor a rank may print it."""

from __future__ import annotations

import os
import subprocess
import sys

QUIET = """
import pathlib, sys
from refsite.testing import snippet_runs
script = pathlib.Path(sys.argv[1])
script.write_text("import torch.utils.cpp_extension\\nprint('imported')\\n")
with snippet_runs.project_server() as server:
    print(server.run(script).check().ranks[0].stdout, end="")
"""


def test_the_project_server_says_nothing_of_a_cuda_toolkit_without_gpu(tmp_path):
    # CUDA_HOME names a toolkit, as an installed one would be found; this machine has no GPU.
    env = {**os.environ, "CUDA_HOME": str(tmp_path), "CUDA_VISIBLE_DEVICES": ""}
    done = subprocess.run([sys.executable, "-c", QUIET, str(tmp_path / "compiles.py")], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert (done.stdout, done.stderr) == ("imported\n", "")
