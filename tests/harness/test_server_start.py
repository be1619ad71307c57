"""Starting the server: a server that died is replaced by the next run, one that cannot serve
ranks here says why once (``ServerRefused``), and its preload never makes CUDA unusable in the
ranks it forks."""

from __future__ import annotations

import textwrap
import time

import pytest

from ranktest import Forkserver, HarnessError, ServerRefused
from refsite.testing import collector, snippet_runs


def test_a_server_runs_again_after_a_harness_error(tmp_path):
    killer = tmp_path / "kill_server.py"
    killer.write_text("import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\n")  # a rank's parent is the server
    hello = tmp_path / "hello.py"
    hello.write_text("print('hello')\n")
    with Forkserver(preload=("torch",)) as server:
        assert server.run(hello).check().ranks[0].stdout == "hello\n"
        with pytest.raises(HarnessError, match="harness server exited"):
            server.run(killer)
        # The next run starts a fresh server and reads its Ready before sending the run.
        assert server.run(hello).check().ranks[0].stdout == "hello\n"
        assert server.run(hello, 2).check().ranks[1].stdout == "hello\n"


POISON = """\
import torch
# What torch.cuda.is_available() does without NVML: ask the CUDA runtime, which marks every
# process forked from this one afterwards as unable to initialize CUDA.
torch._C._cuda_getDeviceCount()
torch.cuda.device_count = lambda: 1  # and pretend the machine has a GPU
"""


@pytest.fixture
def poisoning_module(tmp_path, monkeypatch) -> str:
    (tmp_path / "poison_cuda_fork.py").write_text(POISON)
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    return "poison_cuda_fork"


def test_a_preload_that_initializes_cuda_is_refused_with_the_reason(poisoning_module):
    server = Forkserver(preload=("torch", poisoning_module))
    try:
        with pytest.raises(ServerRefused, match=r"CUDA was initialized in the server while it imported "
                                                r"its preload \(torch,poison_cuda_fork\).*1 GPU"):
            server.start()
    finally:
        server.close()


def test_the_collector_asks_a_refusing_server_once(poisoning_module, monkeypatch):
    monkeypatch.setattr(snippet_runs, "PRELOAD", ("torch", poisoning_module))
    lazy = collector._LazyServer()
    try:
        with pytest.raises(ServerRefused, match="CUDA was initialized"):
            lazy.get()
        started = time.monotonic()
        with pytest.raises(ServerRefused, match="said when the session's first snippet started it"):
            lazy.get()  # no second server: torch is not imported again
        assert time.monotonic() - started < 0.5
    finally:
        lazy.close()


RECORDER = """\
import os
SEEN = os.environ.get("PYTORCH_NVML_BASED_CUDA_CHECK")
"""


def test_the_preload_asks_nvml_and_the_ranks_do_not_inherit_it(tmp_path, monkeypatch):
    # torch.utils.cpp_extension calls torch.cuda.is_available() at import where a CUDA toolkit
    # is installed: with this variable set, that asks NVML instead of initializing CUDA.
    (tmp_path / "record_nvml_check.py").write_text(RECORDER)
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    monkeypatch.delenv("PYTORCH_NVML_BASED_CUDA_CHECK", raising=False)
    rank = tmp_path / "rank.py"
    rank.write_text(textwrap.dedent("""\
        import os, record_nvml_check
        print(record_nvml_check.SEEN, os.environ.get("PYTORCH_NVML_BASED_CUDA_CHECK"))
    """))
    with Forkserver(preload=("torch", "record_nvml_check")) as server:
        assert server.run(rank).check().ranks[0].stdout == "1 None\n"
