"""The pytest plugin (entry point ``pytest11``): a lazy, session-scoped ``forkserver`` fixture.

It collects nothing and adds no options::

    def test_train(forkserver):
        result = forkserver.run("train.py", world_size=2).check()
        assert "loss" in result.ranks[0].stdout

The server starts at the first test that asks for it (about two seconds: it imports torch) and
stops at the end of the session; with pytest-xdist each worker has its own.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ranktest.client import Forkserver


@pytest.fixture(scope="session")
def forkserver() -> Iterator[Forkserver]:
    """A :class:`~ranktest.Forkserver` with default settings, shared by the whole session."""
    with Forkserver() as server:
        yield server
