"""Run scripts and functions on several real ranks, fast, for tests.

The public API: :class:`Forkserver` (a warm process that forks one process per rank),
:class:`RunResult` / :class:`RankResult` (what each rank printed and how it ended) and
:class:`RankFailure` (raised by :meth:`RunResult.check`, with a report naming the failed ranks).
"""

from harness.client import (
    DEFAULT_TIMEOUT_S,
    Capabilities,
    Forkserver,
    HarnessError,
    RankFailure,
    RankResult,
    RunResult,
)

__all__ = ["DEFAULT_TIMEOUT_S", "Capabilities", "Forkserver", "HarnessError", "RankFailure",
           "RankResult", "RunResult"]
