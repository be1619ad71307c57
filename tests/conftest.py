"""Fixtures for Sphinx's test application, set up as Sphinx's own test suite does."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.paths import ROOTS


@pytest.fixture(scope="session")
def rootdir() -> Path:
    """Where ``@pytest.mark.sphinx(testroot=NAME)`` finds ``test-NAME``."""
    return ROOTS


@pytest.fixture(scope="session")
def sphinx_test_tempdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Test roots are copied here (one directory per ``srcdir``) before they are built."""
    return tmp_path_factory.getbasetemp()
