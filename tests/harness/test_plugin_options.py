"""The ``forkserver`` fixture's ini options (``ranktest_preload``, ``ranktest_check_teardown``,
``ranktest_python``), in a pytest session of their own."""

from __future__ import annotations

import sys

import pytest

pytest_plugins = ["pytester"]

# A script that ends without the teardown rule's barrier: fine unless the rule is on.
NO_BARRIER = ("import torch.distributed as dist\ndist.init_process_group('gloo')\n"
              "dist.destroy_process_group()\n")
TEST = f'''
import sys
from pathlib import Path

def test_run(forkserver):
    script = Path(__file__).with_name("script.py")
    script.write_text({NO_BARRIER!r})
    result = forkserver.run(script, world_size=2, timeout=30)
    print("ranks ok:", result.ok)
    print("stderr:", result.ranks[0].stderr.strip().splitlines()[-1:] )
    assert result.ok

def test_preloaded(forkserver, tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text("import sys; print('colorsys preloaded:', 'colorsys' in sys.modules)")
    print(forkserver.run(probe, world_size=1, timeout=30).check().ranks[0].stdout)
'''


@pytest.mark.slow
def test_by_default_a_script_keeps_its_own_teardown(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_demo=TEST)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-s")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["*ranks ok: True", "*colorsys preloaded: False*"])


@pytest.mark.slow
def test_ini_options_set_up_the_server(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_demo=TEST)
    pytester.makeini(f"[pytest]\nranktest_preload =\n    colorsys\nranktest_check_teardown = true\n"
                     f"ranktest_python = {sys.executable}\n")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-s")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*ranks ok: False", "*not preceded by dist.barrier()*",
                                 "*colorsys preloaded: True*"])


# Collected after the server was launched (the file names the fixture): its process is there.
EARLY = '''
import os
from pathlib import Path

def servers():
    found = []
    for proc in Path("/proc").iterdir():
        try:
            stat = (proc / "stat").read_text().rsplit(")", 1)[1].split()
            cmdline = (proc / "cmdline").read_bytes()
        except (OSError, IndexError):
            continue
        if int(stat[1]) == os.getpid() and b"ranktest._server" in cmdline:
            found.append(int(proc.name))
    return found

LAUNCHED_BEFORE_IMPORT = servers()

def test_launched_during_collection(forkserver):
    print("launched before import:", bool(LAUNCHED_BEFORE_IMPORT))
    assert servers() == LAUNCHED_BEFORE_IMPORT

def test_other():
    print("servers now:", len(servers()))
'''


@pytest.mark.slow
def test_the_server_is_launched_while_the_test_file_is_collected(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_demo=EARLY)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-s")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["*launched before import: True*"])


@pytest.mark.slow
def test_a_server_no_selected_test_asks_for_is_stopped(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_demo=EARLY)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-s", "-k", "test_other")
    result.assert_outcomes(passed=1, deselected=1)
    result.stdout.fnmatch_lines(["*servers now: 0*"])
