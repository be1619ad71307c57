"""What a failed compat run says of itself: the exception type and the first line of its message
(:func:`first_error`), as a measurement file stores them. Used by :mod:`compat_run`."""

from __future__ import annotations

import re

from ranktest import RunResult

#: The line that names an exception or a warning: ``ValueError: ...``, ``file.py:3: FutureWarning: ...``.
_EXCEPTION = re.compile(r"\b([A-Za-z_][\w.]*(?:Error|Exception|Warning|Exit|Interrupt|Failure)): ?(.*)")
_TRACEBACK = "Traceback (most recent call last):"
#: The line that ends a traceback: the exception's (dotted) name, then its message if any.
_RAISED = re.compile(r"([A-Za-z_][\w.]*)(?:: ?(.*))?")
#: A C++ exception that ended the process: its type, and the first line of its ``what()``.
_TERMINATE = re.compile(r"terminate called after throwing an instance of '([^']+)'")
_WHAT = re.compile(r"^\s*what\(\):\s*(.*)")


def timeout_error(seconds: float) -> str:
    """The message a timed-out run is stored with."""
    return f"still running after {seconds:g} s"


def first_error(result: RunResult) -> tuple[str, str]:
    """The exception type and the first line of its message of a failed run: the last
    exception line of the first failed rank's stderr (a traceback ends with it); else the line
    that ends a traceback (an exception whose name says nothing of errors); else how the first
    failed rank ended, with a C++ exception's ``what()`` (an abort) or its first line of stderr."""
    if result.timed_out:
        return "Timeout", timeout_error(result.timeout)
    order = sorted(result.ranks, key=lambda r: (r.rank != result.first_failure, r.returncode == 0, r.rank))
    for rank in order:
        for line in reversed(rank.stderr.splitlines()):
            if match := _EXCEPTION.search(line):
                return match.group(1).rsplit(".", 1)[-1], match.group(2).strip()
    for rank in order:
        if raised := _ends_traceback(rank.stderr.splitlines()):
            return raised
    first = order[0]
    lines = first.stderr.splitlines()
    said = next((line.strip() for line in lines if line.strip()), "")
    thrown = next((match.group(1) for line in lines if (match := _TERMINATE.search(line))), None)
    what = next((match.group(1).strip() for line in lines if (match := _WHAT.match(line))), "")
    return first.describe(), f"{thrown}: {what}" if thrown and what else said


def _ends_traceback(lines: list[str]) -> tuple[str, str] | None:
    """(type, message) of the line that ends the last traceback of ``lines``, whatever the
    exception's name (``subprocess.TimeoutExpired: Command ...``)."""
    headers = [number for number, line in enumerate(lines) if line.strip() == _TRACEBACK]
    for line in lines[headers[-1] + 1:] if headers else ():
        if line.strip() and not line[0].isspace():
            match = _RAISED.fullmatch(line.strip())
            return (match.group(1).rsplit(".", 1)[-1], (match.group(2) or "").strip()) if match else None
    return None
