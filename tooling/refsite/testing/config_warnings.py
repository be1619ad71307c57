"""Warnings other pytest plugins raise while pytest configures itself: shown, not fatal.

The project makes every warning an error (``filterwarnings = ["error"]`` in ``pyproject.toml``),
and pytest applies that filter while the plugins' ``pytest_configure`` hooks run. A plugin a
GPU image ships can warn there: pytest-benchmark under pytest-xdist says "Benchmarks are
automatically disabled because xdist plugin is active", and the error ends the whole session in
an INTERNALERROR before any test runs. So, during ``pytest_configure`` only, a warning whose
origin is outside the project is caught and handed to pytest's warnings summary instead (caught
from the first configure hook to the start of the session: a historic hook takes no wrapper). The
project's own warnings there (its tooling, harness, tests and snippets) stay errors, and so does
every warning after configuration. A run that ends before its session starts (``--help``, an
error while configuring) stops catching when pytest unconfigures. Loaded by the root ``conftest.py``.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

#: The project's own code, relative to the root: a warning from here is an error even at
#: configuration time (``.venv``, inside the root too, holds other people's packages).
OWN_CODE = ("src", "tooling", "tests", "snippets", "conftest.py")


def is_own(filename: str, root: Path) -> bool:
    """Whether ``filename`` (where a warning points) is the project's own code."""
    path = Path(filename).resolve()
    return any(path == root / part or (root / part) in path.parents for part in OWN_CODE)


_CAUGHT = pytest.StashKey[tuple[warnings.catch_warnings, list[warnings.WarningMessage]]]()


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    """First of the configure hooks (a historic hook takes no wrapper): catch from here on."""
    catcher = warnings.catch_warnings(record=True)
    config.stash[_CAUGHT] = catcher, catcher.__enter__()
    warnings.simplefilter("always")


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    """Every configure hook has run: stop catching, and sort what was caught."""
    config = session.config
    caught = _stop_catching(config)
    root = config.rootpath.resolve()
    for message in caught:
        if is_own(message.filename, root):  # under the configured filters again: an error
            warnings.warn_explicit(message.message, message.category, message.filename, message.lineno)
        else:
            config.hook.pytest_warning_recorded.call_historic(kwargs=dict(
                warning_message=message, nodeid="", when="config", location=None))


def pytest_unconfigure(config: pytest.Config) -> None:
    """A run that never started its session: stop catching, so the filters are as they were."""
    if _CAUGHT in config.stash:
        _stop_catching(config)


def _stop_catching(config: pytest.Config) -> list[warnings.WarningMessage]:
    """Restore the warning filters; what was caught since :func:`pytest_configure`."""
    catcher, caught = config.stash[_CAUGHT]
    del config.stash[_CAUGHT]
    catcher.__exit__(None, None, None)
    return caught
