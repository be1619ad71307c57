"""What one node of a cluster scenario printed, as a record stores it: normalized (no pids,
ephemeral ports, timestamps or temporary paths) and split into the lines of each rank (those
starting ``rank N:``, as the scenario scripts print) and the rest, which ``torchrun``'s agent (or
Slurm) printed itself, tracebacks of failing workers included.
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
    (re.compile(r"(?<![\d.])(\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-f:.]+\]|[a-z][\w.-]*):(\d{2,5})\b"),
     lambda m: m.group(0) if m.group(2) in FIXED_PORTS or _SOURCE.search(m.group(1))
     else f"{m.group(1)}:<port>"),
    (re.compile(r"delay=\d+ms"), "delay=<n>ms"),
    (re.compile(r"(?<=port )(\d{4,5})\b"), lambda m: m.group(1) if m.group(1) in FIXED_PORTS else "<port>"),
    (re.compile(r"\b0x[0-9a-f]{6,}\b"), "<addr>"),
    (re.compile(r"after (\d+\.\d+|\d+) ?(s|seconds|ms)\b"), r"after <n> \2"),
    (re.compile(r"run_id: [0-9a-f-]{8,}"), "run_id: <id>"),
)
_RANK_LINE = re.compile(r"^rank (\d+): ")


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


def host_entry(host: str, argv: Sequence[str], exit_code: int | None, output: str) -> dict:
    """One node's entry of a record (``exit_code`` ``None``: killed at the scenario's deadline)."""
    agent, ranks = split(output)
    return {"host": host, "command": shlex.join(argv), "exit_code": exit_code,
            "agent": agent, "ranks": ranks}
