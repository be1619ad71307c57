"""Collect every snippet under ``snippets/`` as one test item per variant, run it, compare output.

``pytest snippets/`` yields items such as ``all_reduce[gloo-cpu-2]``. Each item runs the snippet
through the session's :class:`~harness.Forkserver` and compares every rank's stdout with the
snippet's expected-output file. ``--write-outputs`` (``make outputs``) writes those files instead.
A variant that needs GPUs or a backend this machine lacks is skipped with the reason.
"""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

import snippetspec
from harness.client import DEFAULT_TIMEOUT_S, Forkserver


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("snippets")
    group.addoption("--write-outputs", action="store_true",
                    help="write each snippet variant's expected-output file instead of comparing")
    group.addoption("--snippet-timeout", type=float, default=None, metavar="SECONDS",
                    help=f"timeout for snippets that set none in their header (default {DEFAULT_TIMEOUT_S:g})")


def pytest_configure(config: pytest.Config) -> None:
    config.stash[_SERVER] = _LazyServer()


def pytest_unconfigure(config: pytest.Config) -> None:
    config.stash[_SERVER].close()


def _is_snippet(config: pytest.Config, path: Path) -> bool:
    return path.is_relative_to(config.rootpath / "snippets") and snippetspec.is_snippet(path)


def pytest_collect_file(file_path: Path, parent: pytest.Collector):
    # A file named on the command line reaches pytest_pycollect_makemodule instead.
    if _is_snippet(parent.config, file_path) and not parent.session.isinitpath(file_path):
        return SnippetFile.from_parent(parent, path=file_path)
    return None


@pytest.hookimpl(tryfirst=True)
def pytest_pycollect_makemodule(module_path: Path, parent: pytest.Collector):
    """``pytest snippets/x.py`` collects the snippet, instead of importing (running) it."""
    if _is_snippet(parent.config, module_path):
        return SnippetFile.from_parent(parent, path=module_path)
    return None


class _LazyServer:
    """The session's forkserver, started at the first snippet (collection alone costs nothing)."""

    def __init__(self) -> None:
        self.server: Forkserver | None = None

    def get(self) -> Forkserver:
        if self.server is None:
            self.server = Forkserver()
        return self.server

    def close(self) -> None:
        if self.server is not None:
            self.server.close()


_SERVER = pytest.StashKey[_LazyServer]()


def _skip(reason: str) -> None:
    """Skip, reported at the snippet's location rather than this plugin's."""
    raise pytest.skip.Exception(reason, _use_item_location=True)


class SnippetFailure(Exception):
    """A snippet failed its check; the message is the whole report."""


class SnippetFile(pytest.File):
    def collect(self):
        try:
            spec = snippetspec.read_spec(self.path)
        except snippetspec.SpecError as exc:
            raise self.CollectError(str(exc)) from None
        for variant in spec.variants:
            yield SnippetItem.from_parent(self, name=f"{self.path.stem}[{variant.id}]",
                                          spec=spec, variant=variant)


class SnippetItem(pytest.Item):
    def __init__(self, *, spec: snippetspec.Spec, variant: snippetspec.Variant, **kwargs):
        super().__init__(**kwargs)
        self.spec = spec
        self.variant = variant
        self.rel = spec.path.relative_to(self.config.rootpath / "snippets").as_posix()

    def runtest(self) -> None:
        server = self.config.stash[_SERVER].get()
        self._skip_unless_supported(server)
        timeout = self.spec.timeout or self.config.getoption("snippet_timeout") or DEFAULT_TIMEOUT_S
        result = server.run(self.spec.path, self.variant.world_size, env=self.variant.env,
                            timeout=timeout, distributed=self.spec.distributed)
        if not result.ok:
            raise SnippetFailure(result.report())
        noisy = [r for r in result.ranks if r.stderr.strip()]
        if noisy:
            raise SnippetFailure(
                f"{self.rel} [{self.variant.id}]: a clean run must write nothing to stderr, but rank(s) "
                f"{', '.join(str(r.rank) for r in noisy)} did (warnings are errors here):\n"
                + result.report())
        outputs = tuple(snippetspec.normalize_output(r.stdout) for r in result.ranks)
        record_path = self.spec.record_path(self.variant)
        if self.config.getoption("write_outputs"):
            snippetspec.write_record(record_path, self._record(server.capabilities.torch, outputs))
            return
        self._compare(record_path, outputs)

    def _skip_unless_supported(self, server: Forkserver) -> None:
        caps = server.capabilities
        backend = self.variant.backend
        if backend is not None and not caps.backends.get(backend, False):
            _skip(f"backend {backend} is not available in this torch build ({caps.torch})")
        if self.variant.gpus > caps.cuda_devices:
            _skip(f"needs {self.variant.gpus} CUDA GPU(s), this machine has {caps.cuda_devices}")

    def _record(self, torch_version: str, outputs: tuple[str, ...]) -> snippetspec.Record:
        return snippetspec.Record(
            snippet=self.rel, variant=self.variant.id, source_sha256=self.spec.source_sha256(),
            torch=torch_version, backend=self.variant.backend, device=self.variant.device,
            world_size=self.variant.world_size, command=self.spec.command(self.variant), ranks=outputs,
        )

    def _compare(self, record_path: Path, outputs: tuple[str, ...]) -> None:
        fix = f"run 'make outputs' (or: pytest {self.nodeid} --write-outputs) and review the diff"
        try:
            record = snippetspec.read_record(record_path)
        except snippetspec.SpecError as exc:
            raise SnippetFailure(str(exc)) from None
        diffs = []
        for rank, (want, got) in enumerate(zip(record.ranks, outputs)):
            if want != got:
                diffs.extend(difflib.unified_diff(
                    want.splitlines(), got.splitlines(), f"rank {rank} expected ({record_path.name})",
                    f"rank {rank} printed now", lineterm=""))
        if len(record.ranks) != len(outputs):
            diffs.append(f"expected {len(record.ranks)} ranks, ran {len(outputs)}")
        if diffs:
            raise SnippetFailure(f"{self.rel} [{self.variant.id}]: output changed; {fix}\n" + "\n".join(diffs))
        stale = snippetspec.stale_reason(self.spec, record)
        if stale:
            raise SnippetFailure(f"{record_path}: stale: {stale}; {fix}")

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, SnippetFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, 0, f"snippets/{self.rel} [{self.variant.id}]"
