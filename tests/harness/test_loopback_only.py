"""Nothing the harness opens listens beyond loopback: the run's store, and what the ranks open,
for a script run by a ``Forkserver`` and by the ``forkserver`` fixture."""

from __future__ import annotations

from pathlib import Path

import pytest

from ranktest import Forkserver
from tests.support.listening import LISTENING_SCRIPT, off_loopback

pytest_plugins = ["pytester"]


def test_a_run_listens_on_loopback_only(tmp_path):
    script = tmp_path / "listening.py"
    script.write_text(LISTENING_SCRIPT)
    with Forkserver() as server:
        addresses = server.run(script, 2, timeout=60).check().ranks[0].stdout.split()
    assert len(addresses) >= 3, addresses  # the store, and gloo's listener in each rank
    assert not off_loopback(addresses), f"listening beyond loopback: {addresses}"


FIXTURE_TEST = '''
from pathlib import Path
from listening import LISTENING_SCRIPT, off_loopback

def test_listening(forkserver, tmp_path):
    script = tmp_path / "listening.py"
    script.write_text(LISTENING_SCRIPT)
    addresses = forkserver.run(script, world_size=2, timeout=60).check().ranks[0].stdout.split()
    print("listening:", addresses)
    assert len(addresses) >= 3 and not off_loopback(addresses)
'''


@pytest.mark.slow
def test_the_fixture_listens_on_loopback_only(pytester: pytest.Pytester) -> None:
    from tests.support import listening
    pytester.makepyfile(listening=Path(listening.__file__).read_text(), test_demo=FIXTURE_TEST)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-s")
    result.assert_outcomes(passed=1)


#: A torch whose store takes no listening socket, as 2.4.1's libuv store refuses one.
REFUSING = '''
import torch.distributed as dist

_Real = dist.TCPStore


class TCPStore(_Real):
    def __init__(self, *args, master_listen_fd=None, **kwargs):
        if master_listen_fd is not None:
            raise NotImplementedError("The libuv TCPStore backend does not support initialization with an listen fd.")
        super().__init__(*args, **kwargs)


TCPStore.__init__.__doc__ = _Real.__init__.__doc__
dist.TCPStore = TCPStore
'''


def test_a_store_that_takes_no_socket_listens_as_torch_binds_it(tmp_path, monkeypatch):
    (tmp_path / "refusing_store.py").write_text(REFUSING)
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    script = tmp_path / "listening.py"
    script.write_text(LISTENING_SCRIPT)
    with Forkserver(preload=("torch", "torch.distributed", "refusing_store")) as server:
        for _ in range(2):  # the second store does not try again
            addresses = server.run(script, 2, timeout=60).check().ranks[0].stdout.split()
            assert off_loopback(addresses), addresses  # every interface, as before
