"""Root pytest configuration: the snippet collector and Sphinx's test fixtures.

Both come from installed packages (``make`` installs the site's tooling from ``docs/_ext``); the
``forkserver`` fixture comes from the ``ranktest`` package's own pytest plugin.
"""

pytest_plugins = ["snippet_collector", "sphinx.testing.fixtures"]
