"""Root pytest configuration: the snippet collector and Sphinx's test fixtures."""

pytest_plugins = ["harness.pytest_plugin", "sphinx.testing.fixtures"]
