"""The client-server messages of the forkserver (``ranktest._protocol``): each one survives its
line of JSON, and a line that is no known message is refused naming what came."""

from __future__ import annotations

import pytest

from ranktest import _protocol as protocol

MESSAGES = [
    protocol.Ready(torch="2.15.0", cuda_devices=0, backends={"gloo": True, "nccl": False}),
    protocol.Ready(torch="2.15.0", cuda_devices=1, backends={"nccl": True},
                   gpu={"model": "H100", "driver": "1", "cuda": "13.0", "nccl": "2.27.3"}),
    protocol.RunRequest(argv=["/x.py", "--a"], world_size=2, env={"A": "1"}, timeout=60.0, outdir="/tmp/o",
                        cwd="/", strict_warnings=True, distributed=True, run_id="r-1", check_teardown=False),
    protocol.Done(ranks=[protocol.RankEnd(0, 0, False), protocol.RankEnd(1, -9, True)], first_failure=1,
                  timed_out=False, elapsed=1.5),
]


@pytest.mark.parametrize("message", MESSAGES, ids=lambda m: type(m).__name__)
def test_a_message_comes_back_as_it_was_sent(message) -> None:
    line = protocol.encode(message)
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    assert protocol.decode(line) == message


@pytest.mark.parametrize(("line", "named"), [
    (b'{"op": "shutdown"}\n', "KeyError: 'shutdown'"),
    (b'{"op": "done", "ranks": []}\n', "TypeError"),
    (b"Traceback (most recent call last):\n", "Traceback"),
    (b"", "(end of stream)"),
])
def test_a_line_that_is_no_message_is_named(line: bytes, named: str) -> None:
    with pytest.raises(protocol.ProtocolError, match="not a ranktest message") as caught:
        protocol.decode(line)
    assert named in str(caught.value)
