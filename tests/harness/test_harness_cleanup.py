"""Nothing outlives a run: not when two servers run at once, not when the test process is
killed, not when the server itself is killed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from tests.support.harness_cases import pids_in, script
from tests.support.paths import SNIPPETS
from ranktest import Forkserver, HarnessError
from ranktest._procs import alive


def test_two_servers_at_once_never_collide(tmp_path):
    all_reduce = SNIPPETS / "distributed" / "all_reduce.py"
    failures: list[str] = []

    def work():
        with Forkserver() as server:
            for _ in range(5):
                result = server.run(all_reduce, 2)
                if not result.ok:
                    failures.append(result.report())

    threads = [threading.Thread(target=work) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures, failures[0]


CLIENT = """\
import sys, pathlib, signal
# Act like an interactive test process whatever signal state this one inherited.
signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGINT, signal.SIGTERM])
signal.signal(signal.SIGINT, signal.default_int_handler)
from ranktest import Forkserver
server = Forkserver()
server.start()
pathlib.Path({pid_dir!r}, "server").write_text(str(server._proc.pid))
print("ready", flush=True)
server.run({script!r}, 2, env={{"PID_DIR": {pid_dir!r}}}, timeout=300)
"""


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM, signal.SIGINT])
def test_nothing_survives_the_test_process(tmp_path, sig):
    pid_dir = tmp_path / "pids"
    pid_dir.mkdir()
    hang = script(tmp_path, "time.sleep(300)\n")
    client = tmp_path / "client.py"
    client.write_text(CLIENT.format(pid_dir=str(pid_dir), script=str(hang)))
    proc = subprocess.Popen([sys.executable, str(client)], stdout=subprocess.PIPE)
    try:
        assert proc.stdout.readline() == b"ready\n"
        deadline = time.monotonic() + 30
        # pids_in, not the number of files: a file can exist before its pid is written in it
        while len(pids_in(pid_dir)) < 3 and time.monotonic() < deadline:
            time.sleep(0.05)
        pids = pids_in(pid_dir)
        assert len(pids) == 3, "the server and both ranks should have started"
        proc.send_signal(sig)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:  # a failed assertion above: leave nothing behind
            proc.kill()
            proc.wait()
        proc.stdout.close()
    deadline = time.monotonic() + 5
    while any(alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [p for p in pids if alive(p)], "server or ranks outlived the test process"


def test_ranks_die_with_a_killed_server(tmp_path):
    pid_dir = tmp_path / "pids"
    pid_dir.mkdir()
    hang = script(tmp_path, "time.sleep(300)\n")
    server = Forkserver()
    server.start()
    server_pid = server._proc.pid

    def kill_server_once_ranks_run():
        deadline = time.monotonic() + 30
        while len(pids_in(pid_dir)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        os.kill(server_pid, signal.SIGKILL)

    killer = threading.Thread(target=kill_server_once_ranks_run)
    killer.start()
    with pytest.raises(HarnessError, match="harness server exited"):
        server.run(hang, 2, env={"PID_DIR": str(pid_dir)}, timeout=300, distributed=True)
    killer.join()
    pids = pids_in(pid_dir)
    deadline = time.monotonic() + 5
    while any(alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(pids) == 2 and not [p for p in pids if alive(p)], "ranks outlived their server"


QUIET_SERVER = """
from pathlib import Path
from ranktest import Forkserver
script = Path({tmp!r}, "noop.py")
script.write_text("pass\\n")
with Forkserver(preload=("torch", "torch.distributed", "torch._dynamo")) as server:
    server.run(script, 2, distributed=True).check()
launched = Forkserver(preload=("torch",))
launched.start(wait=False)  # launched, never used: closed while it still imports torch
launched.close()
"""


def test_the_server_ends_without_a_word(tmp_path):
    # The server freezes what it preloads (gc.freeze); ending through the interpreter's teardown
    # then made extension modules (triton's, under torch._dynamo) print "nanobind: leaked ...".
    done = subprocess.run([sys.executable, "-c", QUIET_SERVER.format(tmp=str(tmp_path))],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert (done.stdout, done.stderr) == ("", "")
