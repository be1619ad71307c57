"""How a multi-node record keeps what a node printed (refsite.commands.cluster.output): masked
where a run differs from the next, condensed where a failing run repeats itself. The lines are
shaped as torchrun, c10d and gloo print them (taken from the records)."""

from __future__ import annotations

from refsite.commands.cluster.output import condense, host_entry, normalize, split

C10D_WARNING = (
    "[W1125 04:31:07.123456 29222 TCPStore.cpp:138] [c10d] recvValueWithTimeout failed on "
    "SocketImpl(fd=3, addr=[301f:5a00:fc7f:0:b6:8fb9:8338:350f]:40312, "
    "remote=[fdff:ffff:0:0:d900::]:29400): Failed to recv, got 0 bytes.")
CPP_TRACE = [
    "Exception raised from recvBytes at /__w/pytorch/pytorch/torch/csrc/distributed/c10d/Utils.hpp:786 "
    "(most recent call first):",
    "frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x9d (0x7f3a12345678 in /x/libc10.so)",
    "frame #5: c10d::TCPStore::doWait(c10::ArrayRef<std::string>) + 0xc5 (0x7f3a12345679 in /x/libtorch_cpu.so)",
    "<omitting python frames>",
    "frame #29: <unknown function> + 0x2724a (0x7f3a1234567a in /lib/x86_64-linux-gnu/libc.so.6)",
    "",
]


def test_normalize_masks_times_pids_ephemeral_ports_and_ipv6_literals() -> None:
    [line] = normalize(C10D_WARNING)
    assert line == ("[W<time> TCPStore.cpp:138] [c10d] recvValueWithTimeout failed on SocketImpl(fd=3, "
                    "addr=[<ipv6>]:<port>, remote=[<ipv6>]:29400): Failed to recv, got 0 bytes.")
    # A fixed port stays, and so does a host name in brackets (elastic_join's records).
    assert normalize("connect to [node0.v4mapped]:29400 from 198.18.0.2:51234") == [
        "connect to [node0.v4mapped]:29400 from 198.18.0.2:<port>"]


def test_condense_drops_the_cpp_backtrace_under_a_c10d_message() -> None:
    lines = normalize("\n".join([C10D_WARNING, *CPP_TRACE, C10D_WARNING, *CPP_TRACE,
                                 "torch.distributed.DistNetworkError: Failed to recv"]))
    assert condense(lines) == [normalize(C10D_WARNING)[0],
                               "torch.distributed.DistNetworkError: Failed to recv"]


def test_condense_keeps_each_traceback_last_line_sorted_and_the_failure_summary() -> None:
    output = "\n".join([
        "Traceback (most recent call last):",
        '  File "train.py", line 9, in <module>',
        "RuntimeError: Gloo connectFullMesh failed",
        "Traceback (most recent call last):",
        '  File "run.py", line 3, in <module>',
        "torch.distributed.elastic.multiprocessing.errors.ChildFailedError:",
        "=" * 40,
        "train.py FAILED",
        "-" * 40,
        "Failures:",
        "[1]:",
        "  time      : 2026-11-25_04:31:07",
        "  host      : localhost",
        "  rank      : 1 (local_rank: 1)",
        "  exitcode  : -15 (pid: 4242)",
        "Root Cause (first observed failure):",
        "[0]:",
        "  host      : localhost",
        "  rank      : 0 (local_rank: 0)",
        "  exitcode  : 1 (pid: 4241)",
        "=" * 40,
    ])
    assert condense(normalize(output)) == [
        "RuntimeError: Gloo connectFullMesh failed",
        "torch.distributed.elastic.multiprocessing.errors.ChildFailedError",
        "train.py FAILED",
        "  host      : localhost", "  rank      : 0 (local_rank: 0)", "  exitcode  : 1 (pid: <pid>)",
        "  host      : localhost", "  rank      : 1 (local_rank: 1)", "  exitcode  : -15 (pid: <pid>)",
    ]


def test_a_node_entry_splits_rank_lines_from_the_agent() -> None:
    agent, ranks = split("rank 2: node 1\nwarning from the agent\nrank 0: node 0\n")
    assert agent == ["warning from the agent"]
    assert ranks == {"0": ["rank 0: node 0"], "2": ["rank 2: node 1"]}
    entry = host_entry("node1", ["torchrun", "train.py"], None, C10D_WARNING + "\n" + "\n".join(CPP_TRACE),
                       condensed=True)
    assert entry["exit_code"] is None and entry["agent"] == normalize(C10D_WARNING)


def test_a_rendezvous_result_is_masked_where_runs_differ() -> None:
    assert normalize("I1125 04:31:07.123 29663 api.py:552]   master_port=34803\n"
                     "The node 'localhost_29663_0' has failed to shutdown the rendezvous 'job42'\n"
                     "master_port=29500") == [
        "I<time> api.py:552]   master_port=<port>",
        "The node 'localhost_<pid>_0' has failed to shutdown the rendezvous 'job42'",
        "master_port=29500"]


def test_condense_drops_pieces_of_tracebacks_that_other_workers_cut_into() -> None:
    # Two workers of one node failing at once: their tracebacks interleave, even within lines.
    output = "\n".join([
        "[W1125 04:31:07.123456 29222 socket.cpp:207] [c10d] The hostname cannot be retrieved.",
        "Traceback (most recent call last):",
        '  File "train.py", line 12, in <module>',
        "RuntimeError: Gloo connectFullMesh failed, remote=[127.0.0.1]:40312$1",
        "           ^^^^^^^^^^^^^^^^^^^^^",
        '  File "/v/site-packages/torch/distributed/c10d_logger.py", line 97, in wrapper',
        "    ^^^^^^^^^^^^^^^^^    ^func_return = func(*args, **kwargs)^",
        "Traceback (most recent call last):",
        '^^^^  File "/v/site-packages/torch/distributed/c10d_logger.py", line 83, in wrapper',
        "RuntimeError: Gloo connectFullMesh failed, remote=[127.0.0.1]:40314$2",
        "^^^^^^^^^^^^",
        'dist.init_process_group("gloo")  # env://: RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT',
        "RuntimeError: Gloo connectFullMesh failed, remote=[127.0.0.1]:40313$0",
    ])
    assert condense(normalize(output)) == [
        "[W<time> socket.cpp:207] [c10d] The hostname cannot be retrieved.",
        "RuntimeError: Gloo connectFullMesh failed, remote=[127.0.0.1]:<port>$0",
        "RuntimeError: Gloo connectFullMesh failed, remote=[127.0.0.1]:<port>$1",
        "RuntimeError: Gloo connectFullMesh failed, remote=[127.0.0.1]:<port>$2",
    ]


def test_a_node_that_finished_drops_the_store_closed_at_exit_race() -> None:
    race = ("[W1126 10:58:01.1 TCPStore.cpp:138] [c10d] recvValueWithTimeout failed on SocketImpl(fd=3, "
            "addr=[node1]:5, remote=[node0]:29500): Failed to recv, got 0 bytes. Connection was likely closed. "
            "Did the remote server shutdown or crash?\n"
            "Exception raised from recvBytes at /x/Utils.hpp:786 (most recent call first):\n"
            "frame #0: c10::Error::Error() + 0x1\n"
            "\n"
            "rank 2: node 1, local rank 0\n")
    finished = host_entry("node1", ["torchrun"], 0, race)
    assert finished["agent"] == [] and finished["ranks"] == {"2": ["rank 2: node 1, local rank 0"]}
    # a node that failed keeps it: there it may be the failure itself
    failed = host_entry("node1", ["torchrun"], 1, race)
    assert any("recvValueWithTimeout failed" in line for line in failed["agent"])


def test_a_node_that_finished_drops_an_exit_barrier_failure_and_its_traceback() -> None:
    # torch's log format: the record's prefix on each line of the message and its traceback
    prefix = "E1126 13:02:11.120000 4242 site-packages/torch/distributed/elastic/agent/server/api.py:1007] "
    logged = "".join(prefix + line + "\n" for line in (
        "Error waiting on exit barrier. Elapsed: 0.0021 seconds", "Traceback (most recent call last):",
        '  File "/venv/site-packages/torch/distributed/elastic/agent/server/api.py", line 993, in _exit_barrier',
        "    store_util.barrier(", "torch.distributed.DistStoreError: Socket Timeout"))
    finished = host_entry("node1", ["torchrun"], 0, "rank 2: node 1\n" + logged + "I1126 13:02:12.1 4242 x.py:2] end\n")
    assert finished["agent"] == ["I<time> x.py:2] end"]
    assert any("DistStoreError" in line for line in host_entry("node1", ["torchrun"], 1, logged)["agent"])
    # Python's plain log format: the traceback (chained here) under the message, unprefixed
    race = ("rank 2: node 1, local rank 0\n"
            "E1126 13:02:11.120000 4242 site-packages/torch/distributed/elastic/agent/server/api.py:1007] "
            "Error waiting on exit barrier. Elapsed: 0.0021 seconds\n"
            "Traceback (most recent call last):\n"
            '  File "/venv/site-packages/torch/distributed/elastic/utils/store.py", line 120, in barrier\n'
            "    store.wait([last_member_key], timeout)\n"
            "    ~~~~~~~~~~^^^^^^^^^^^^^^^^^^^\n"
            "torch.distributed.DistNetworkError: failed to recv, got 0 bytes\n"
            "\n"
            "The above exception was the direct cause of the following exception:\n"
            "\n"
            "Traceback (most recent call last):\n"
            '  File "/venv/site-packages/torch/distributed/elastic/agent/server/api.py", line 993, in _exit_barrier\n'
            "torch.distributed.DistStoreError: Socket Timeout\n"
            "W1126 13:02:12.000000 4242 api.py:1] a later message\n")
    finished = host_entry("node1", ["torchrun"], 0, race)
    assert finished["agent"] == ["W<time> api.py:1] a later message"]
    assert finished["ranks"] == {"2": ["rank 2: node 1, local rank 0"]}
    failed = host_entry("node1", ["torchrun"], 1, race)
    assert any("Error waiting on exit barrier" in line for line in failed["agent"])
    assert "torch.distributed.DistStoreError: Socket Timeout" in failed["agent"]
