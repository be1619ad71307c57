"""Checks that passed, remembered by everything they read, so that ``make test`` repeats an
expensive check of a snippet only when one of its inputs changed.

Three checks use it, each costing seconds: a snippet copied alone and launched by its ``Run:``
line (a real ``torchrun``), the Chinese file run through the harness, and the harness run of
a distributed snippet (a ``torchrun`` one, or one that starts processes itself). Each is a pure function of its inputs: the snippet's
bytes (or the Chinese file's), the record it is held to, the variant, and the tooling (this
package's and ``ranktest``'s sources, the test file, the Python and every installed
distribution's version, the ``TORCH_*``/``NCCL_*``/``OMP_*``... environment). Every pass is
remembered; with ``--reuse-passed`` (``make test``, ``make test-fast``) a check that passed
with exactly these inputs is skipped and says so, a change to any input runs it again, and a
failure is never remembered. The memory lives in pytest's cache (``.pytest_cache``), so a
fresh clone (CI) runs every check, and a plain ``pytest`` (``make test-all``, ``make doctest``)
runs them all.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.metadata
import os
import platform
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Protocol

import pytest

import ranktest

#: Environment variables whose value can change what a snippet prints.
ENV_PREFIXES = ("TORCH", "NCCL", "GLOO", "OMP_", "MKL", "KMP_", "CUDA", "PYTHON", "LD_", "MASTER_",
                "OPENBLAS", "TP_", "TORCHELASTIC")
REASON = ("passed before with exactly these inputs (snippet, record, tooling, installed versions); "
          "runs again when one changes, or without --reuse-passed (make test-all)")
#: Where the tooling's sources live: this package (refsite) and ranktest.
TOOLING_DIRS = (Path(__file__).resolve().parents[1], Path(ranktest.__file__).resolve().parent)


class Store(Protocol):
    """What pytest's ``config.cache`` offers (a dict-like stand-in will do in tests)."""

    def get(self, key: str, default): ...
    def set(self, key: str, value) -> None: ...


def environment_digest() -> str:
    """The tooling's sources, the interpreter, the installed distributions and the relevant
    environment variables, as one digest."""
    sha = hashlib.sha256()
    for directory in TOOLING_DIRS:
        for path in sorted(directory.rglob("*.py")):
            sha.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    sha.update(f"{sys.version}\0{platform.platform()}\0".encode())
    # a set: one distribution can be found twice (an editable install's source folder on sys.path)
    dists = sorted({f"{d.metadata['Name']}=={d.version}" for d in importlib.metadata.distributions()})
    sha.update("\n".join(dists).encode())
    env = sorted((k, v) for k, v in os.environ.items() if k.startswith(ENV_PREFIXES))
    sha.update(repr(env).encode())
    return sha.hexdigest()


def digest(*inputs: bytes | str | Path) -> str:
    """One digest of ``inputs``: a path counts by its bytes (a missing file counts as missing)."""
    sha = hashlib.sha256()
    for item in inputs:
        if isinstance(item, Path):
            item = item.read_bytes() if item.exists() else f"<missing {item.name}>".encode()
        sha.update((item.encode() if isinstance(item, str) else item) + b"\0")
    return sha.hexdigest()


class PassedChecks:
    """Remembers checks that passed; reuses them only when asked to (``reuse``)."""

    def __init__(self, store: Store, environment: str, *, reuse: bool = True) -> None:
        self.store, self.environment, self.reuse = store, environment, reuse

    def _key(self, check: str) -> str:
        return "snippets/passed/" + hashlib.sha256(check.encode()).hexdigest()[:32]

    def key(self, check: str, *inputs: bytes | str | Path) -> str:
        """The digest a pass of ``check`` with ``inputs`` is remembered under."""
        return digest(check, self.environment, *inputs)

    def passed_before(self, check: str, key: str) -> bool:
        return self.reuse and self.store.get(self._key(check), None) == key

    def skip_if_passed(self, check: str, key: str) -> None:
        """Skip the calling test when ``check`` passed before under ``key``."""
        if self.passed_before(check, key):
            raise pytest.skip.Exception(REASON, _use_item_location=True)

    def remember(self, check: str, key: str) -> None:
        """Call only after the check passed."""
        self.store.set(self._key(check), key)

    @contextlib.contextmanager
    def unless_passed(self, check: str, *inputs: bytes | str | Path) -> Iterator[None]:
        """Skip the calling test if ``check`` passed before with ``inputs``; otherwise run the
        ``with`` body and remember the pass if it ends without an exception."""
        key = self.key(check, *inputs)
        self.skip_if_passed(check, key)
        yield
        self.remember(check, key)


class _NoStore:
    """Used when pytest's cache plugin is off (``-p no:cacheprovider``): nothing is reused."""

    def get(self, key: str, default):
        return default

    def set(self, key: str, value) -> None:
        pass


def for_config(config: pytest.Config) -> PassedChecks:
    """The session's :class:`PassedChecks`, over ``config.cache``."""
    store = getattr(config, "cache", None) or _NoStore()
    return PassedChecks(store, environment_digest(), reuse=config.getoption("reuse_passed"))
