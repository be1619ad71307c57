"""Root pytest configuration: the snippet collector and Sphinx's test fixtures.

Both come from installed packages (``make`` installs the site's tooling, ``refsite``, from
``tooling/``); the
``forkserver`` fixture comes from the ``ranktest`` package's own pytest plugin.
"""

pytest_plugins = ["refsite.testing.collector", "sphinx.testing.fixtures"]


def pytest_collection_modifyitems(items) -> None:
    """Slow and browser items first (a stable sort): with two xdist workers, the long ones then
    start early instead of trailing behind everything else."""
    items.sort(key=lambda item: not (item.get_closest_marker("slow") or item.get_closest_marker("browser")))
