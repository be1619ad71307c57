"""Fixtures for Sphinx's test application, set up as Sphinx's own test suite does.

Sphinx's fixture module is imported here rather than named in the root ``conftest.py``'s
``pytest_plugins``: only the tests need Sphinx, and ``make doctest`` (``pytest snippets``) must
run where it is not installed.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from sphinx.testing.fixtures import *  # noqa: F403 - the fixtures and the markers they need
from sphinx.testing.fixtures import _shared_result_cache  # noqa: F401 - autouse, not in *

from tests.support.paths import ROOTS


@pytest.fixture(scope="session")
def rootdir() -> Path:
    """Where ``@pytest.mark.sphinx(testroot=NAME)`` finds ``test-NAME``."""
    return ROOTS


@pytest.fixture(scope="session")
def sphinx_test_tempdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Test roots are copied here (one directory per ``srcdir``) before they are built."""
    return tmp_path_factory.getbasetemp()
