"""Run scripts and functions on several real ``torch.distributed`` ranks, fast, for tests.

The public API: :class:`Forkserver` (a warm process that forks one process per rank),
:class:`RunResult` / :class:`RankResult` (what each rank printed and how it ended),
:class:`RankFailure` (raised by :meth:`RunResult.check`, with a report naming the failed ranks)
and :class:`HarnessError` (the server itself failed; :class:`ServerRefused` when it cannot serve
runs on this machine and said why). Installed, the package also gives pytest a
session-scoped ``forkserver`` fixture (:mod:`ranktest.pytest_plugin`). Linux only.
"""

from __future__ import annotations

import importlib
import typing

if typing.TYPE_CHECKING:
    from ranktest.client import DEFAULT_TIMEOUT_S, Forkserver, default_preload
    from ranktest.results import Capabilities, HarnessError, RankFailure, RankResult, RunResult, ServerRefused

#: Where each public name lives. Imported on first use: every process a launch starts with the
#: start-up shim imports ``ranktest.exitcheck``, and so this package, and needs none of them.
_HOMES = {"DEFAULT_TIMEOUT_S": "client", "Forkserver": "client", "default_preload": "client",
          **dict.fromkeys(["Capabilities", "HarnessError", "RankFailure", "RankResult", "RunResult",
                           "ServerRefused"], "results")}
__all__ = ["DEFAULT_TIMEOUT_S", "Capabilities", "Forkserver", "HarnessError", "RankFailure",
           "RankResult", "RunResult", "ServerRefused", "default_preload"]


def __getattr__(name: str) -> object:
    if name not in _HOMES:
        raise AttributeError(f"module 'ranktest' has no attribute {name!r}")
    return getattr(importlib.import_module(f"ranktest.{_HOMES[name]}"), name)
