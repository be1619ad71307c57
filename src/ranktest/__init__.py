"""Run scripts and functions on several real ``torch.distributed`` ranks, fast, for tests.

The public API: :class:`Forkserver` (a warm process that forks one process per rank),
:class:`RunResult` / :class:`RankResult` (what each rank printed and how it ended),
:class:`RankFailure` (raised by :meth:`RunResult.check`, with a report naming the failed ranks)
and :class:`HarnessError` (the server itself failed; :class:`ServerRefused` when it cannot serve
runs on this machine and said why). Installed, the package also gives pytest a
session-scoped ``forkserver`` fixture (:mod:`ranktest.pytest_plugin`). Linux only.
"""

from ranktest.client import DEFAULT_TIMEOUT_S, Forkserver, default_preload
from ranktest.results import Capabilities, HarnessError, RankFailure, RankResult, RunResult, ServerRefused

__all__ = ["DEFAULT_TIMEOUT_S", "Capabilities", "Forkserver", "HarnessError", "RankFailure",
           "RankResult", "RunResult", "ServerRefused", "default_preload"]
