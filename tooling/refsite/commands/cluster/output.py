"""What one node of a cluster scenario printed, as a record stores it: normalized (no pids,
ephemeral ports, timestamps or temporary paths) and split into the lines of each rank (those
starting ``rank N:``, as the scenario scripts print) and the rest, which ``torchrun``'s agent (or
Slurm) printed itself, tracebacks of failing workers included.

A failing run prints more than its outcome: gloo's connection retries, warnings repeated per
connection, tracebacks of several workers interleaved in the order they happened to fail.
:func:`condense` keeps of those what a repeated run prints again: each traceback's exception
line (type and first line), sorted; each other message once (no C++ backtrace under a c10d
message, no piece of a traceback that another worker's output cut into); and ``torchrun``'s
failure summary, per failed rank its host, rank and exit code, in rank order.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence

_SOURCE = re.compile(r"\.(?:py|c|cc|cpp|h|hpp|cu)$")  # file:line, not host:port
#: Ports the scenarios choose; every other port number is ephemeral and masked.
FIXED_PORTS = ("29400", "29500", "6817", "6818")
_RULES = (
    (re.compile(r"^([WEIF])\d{4} \d\d:\d\d:\d\d\.\d+(?: +\d+)?"), r"\1<time>"),
    (re.compile(r"\[([WEIF])\d{4} \d\d:\d\d:\d\d\.\d+(?: +\d+)?"), r"[\1<time>"),
    (re.compile(r"\d{4}-\d\d-\d\d[ T_]\d\d:\d\d:\d\d(?:[,.]\d+)?"), "<time>"),
    (re.compile(r"(?:/[\w.+-]+)+/site-packages/"), "<site-packages>/"),
    (re.compile(r"(?:/[\w.+-]+)+/(?:bin/)?(python3?|torchrun)\b(?!\.)"), r"<venv>/\1"),
    (re.compile(r"\b(?:[A-Z][a-z]{2} ){1,2}\d?\d \d\d:\d\d:\d\d \d{4}\b"), "<time>"),
    (re.compile(r"/tmp/[\w./-]+"), "<tmp>"),
    (re.compile(r"(?i)\b(pid[ =:]+|local_pid=|pid )\d+"), r"\g<1><pid>"),
    (re.compile(r"(?<![\d.])(\d{1,3}(?:\.\d{1,3}){3}|\[[\w:.-]+\]|[a-z][\w.-]*):(\d{2,5})\b"),
     lambda m: m.group(0) if m.group(2) in FIXED_PORTS or _SOURCE.search(m.group(1))
     else f"{m.group(1)}:<port>"),
    (re.compile(r"\[[0-9a-f]*:[0-9a-f:]+\]"), "[<ipv6>]"),  # after the ports: [<ipv6>]:<port>
    (re.compile(r"delay=\d+ms"), "delay=<n>ms"),
    (re.compile(r"(?<=port )(\d{4,5})\b"), lambda m: m.group(1) if m.group(1) in FIXED_PORTS else "<port>"),
    (re.compile(r"\b0x[0-9a-f]{6,}\b"), "<addr>"),
    (re.compile(r"after (\d+\.\d+|\d+) ?(s|seconds|ms)\b"), r"after <n> \2"),
    (re.compile(r"run_id: [0-9a-f-]{8,}"), "run_id: <id>"),
    (re.compile(r"\bmaster_port=(\d+)"), lambda m: m.group(0) if m.group(1) in FIXED_PORTS
     else "master_port=<port>"),
    (re.compile(r"(The node '[^']*_)\d+(_\d+')"), r"\1<pid>\2"),  # a rendezvous node: addr_pid_id
)
_RANK_LINE = re.compile(r"^rank (\d+): ")
#: Lines :func:`condense` drops: gloo's connection retries (their number varies) and log lines
#: that repeat an exception or name the worker that happened to fail first.
_NOISE = re.compile(r"debug_logger\.cc:\d+\] ERROR failed to connect|^\[?E<time> ProcessGroupGloo\.cpp"
                    r"|closing signal SIG|\] failed \(exitcode: -?\d+\) local_rank:")
#: The C++ backtrace under a c10d warning or error (its frames differ between builds and runs):
#: ``Exception raised from ...``, the ``frame #N: ...`` lines, and the blank line that ends it.
_CPP_TRACE = re.compile(r"^Exception raised from |^frame #\d+: |^<omitting python frames>$")
#: What a condensed output keeps outside a traceback and the failure summary: messages (log
#: lines, exception lines, the chaining line between two tracebacks, the ``FAILED`` header).
#: Tracebacks of several workers of one node can arrive interleaved, even within a line; their
#: pieces (code lines, carets, ``File`` lines) are not messages and are dropped wherever they are.
_MESSAGE = re.compile(r"^(?:\[?[WEIF]<time>|\[[\w ]+\]|[\w.]*(?:Error|Exception|Interrupt|Exit|Warning)\b"
                      r"|torch\.|The above exception|During handling| *\S+ FAILED$)")
_SUMMARY_KEYS = ("host", "rank", "exitcode")


def condense(lines: list[str]) -> list[str]:
    """The stable part of a failing node's (normalized) output, see the module's docstring."""
    kept: list[str] = []
    errors: list[str] = []
    summary: list[list[str]] = []
    in_traceback = in_summary = in_cpp_trace = False
    for line in lines:
        if _CPP_TRACE.search(line) or (in_cpp_trace and not line):
            in_cpp_trace = bool(line)
            continue
        in_cpp_trace = False
        if line.startswith("Traceback (most recent call last):"):
            in_traceback = True
            continue
        if in_traceback:  # up to its exception line (not a piece another worker cut into it)
            if line.startswith(" ") or not line or not _MESSAGE.search(line):
                continue
            in_traceback = False
            errors.append(line.rstrip(": ") if line.endswith("ChildFailedError:") else line)
            continue
        if re.fullmatch(r"={20,}", line):  # torchrun's failure summary starts and ends so
            in_summary = not in_summary
            continue
        if in_summary:
            key, _, value = line.strip().partition(":")
            if re.fullmatch(r"\[\d+\]", key.strip()):
                summary.append([])
            elif key.strip() in _SUMMARY_KEYS and summary:
                summary[-1].append(f"  {key.strip():<10}: {value.strip()}")
            elif line.endswith(" FAILED"):
                kept.append(line)
            continue
        if _NOISE.search(line) or not _MESSAGE.search(line) or line in kept:
            continue
        kept.append(line)
    failed = sorted(summary, key=lambda entry: next((e for e in entry if "rank" in e), ""))
    return ([line for line in kept if not line.endswith(" FAILED")] + sorted(errors)
            + [line for line in kept if line.endswith(" FAILED")]
            + [line for entry in failed for line in entry])


def normalize(text: str) -> list[str]:
    """Lines as a record keeps them: masked, without trailing blanks and blank runs."""
    lines = []
    for line in text.splitlines():
        for pattern, replacement in _RULES:
            line = pattern.sub(replacement, line)
        line = line.rstrip()
        if line or (lines and lines[-1]):
            lines.append(line)
    while lines and not lines[-1]:
        lines.pop()
    return lines


def split(text: str) -> tuple[list[str], dict[str, list[str]]]:
    """(the agent's lines, each rank's lines by rank) of one node's output, ranks in order."""
    agent: list[str] = []
    ranks: dict[str, list[str]] = {}
    for line in normalize(text):
        match = _RANK_LINE.match(line)
        if match:
            ranks.setdefault(match.group(1), []).append(line)
        else:
            agent.append(line)
    return agent, dict(sorted(ranks.items(), key=lambda item: int(item[0])))


#: A node that ran to the end (exit 0) may still log that its agent's connection to the
#: rendezvous store closed: the store's host finished first and closed it while this agent was
#: shutting down (a race of the two agents' ends, seen now and then under load). It is no fault.
#: It shows as a c10d warning with a C++ backtrace, or, when the race hits the agents' exit
#: barrier, as torch's "Error waiting on exit barrier" log line with the Python traceback of the
#: store's error (the job's result is already known then, and the agent exits 0 anyway).
_STORE_CLOSED_AT_EXIT = re.compile(r"TCPStore\.cpp:\d+\] \[c10d\] recvValueWithTimeout failed .*"
                                   r"Connection was likely closed")
_EXIT_BARRIER_FAILED = re.compile(r"\] Error waiting on exit barrier\b")
_CHAINED = re.compile(r"^(?:The above exception|During handling of the above exception)")


def _without_store_closed_at_exit(agent: list[str]) -> list[str]:
    """``agent`` without :data:`_STORE_CLOSED_AT_EXIT` warnings and their C++ backtraces, and
    without :data:`_EXIT_BARRIER_FAILED` lines and the (chained) tracebacks logged under them."""
    kept: list[str] = []
    skipping = None  # None, "cpp" (a C++ backtrace), "python" (traceback) or "after" (its end)
    record_prefix = None  # torch's log format repeats a record's prefix on each of its lines
    for line in agent:
        if (store := _STORE_CLOSED_AT_EXIT.search(line)) or (barrier := _EXIT_BARRIER_FAILED.search(line)):
            skipping, record_prefix = ("cpp", None) if store else ("after", line[:barrier.start() + 2])
            continue
        if record_prefix and line.startswith(record_prefix):
            continue
        record_prefix = None
        if skipping and (_CPP_TRACE.match(line) or not line):
            continue
        if skipping in ("python", "after") and (line.startswith("Traceback (most recent call last)")
                                                or _CHAINED.match(line)):
            skipping = "python"
            continue
        if skipping == "python":  # the frames, then the exception line that ends them
            skipping = "python" if line.startswith(" ") else "after"
            continue
        skipping = None
        kept.append(line)
    return kept


def host_entry(host: str, argv: Sequence[str], exit_code: int | None, output: str, *,
               condensed: bool = False) -> dict:
    """One node's entry of a record (``exit_code`` ``None``: killed at the scenario's deadline);
    ``condensed``: the agent's lines through :func:`condense` (the entry says so). A node that
    exited 0 keeps no store-closed-at-exit race (:func:`_without_store_closed_at_exit`)."""
    agent, ranks = split(output)
    if exit_code == 0:
        agent = _without_store_closed_at_exit(agent)
    entry = {"host": host, "command": shlex.join(argv), "exit_code": exit_code,
             "agent": condense(agent) if condensed else agent, "ranks": ranks}
    if condensed:
        entry["condensed"] = True
    return entry
