"""The project's pytest plugin: every variant of every snippet under ``snippets/`` is a test item.

``pytest snippets/`` yields items such as ``all_reduce[gloo-cpu-2]``. Each item runs the snippet
through the session's project forkserver (:func:`snippet_runs.project_server`, started at the
first snippet) and compares every rank's stdout with the snippet's expected-output file.
``--write-outputs`` (``make outputs``) writes those files instead. A variant that needs GPUs or
a backend this machine lacks is skipped with the reason. Loaded by the root ``conftest.py``.

A CUDA variant with no record of its own is still checked on first use: against the CPU
record of the same snippet when the snippet declares ``Output: same on all devices``, and
otherwise only for a clean run ("ran clean, not recorded yet"). Every item records its
:data:`OUTCOMES` entry as the user property ``outcome`` (so JUnit XML carries it), and the
session ends with a table of them and the list of what is not verified yet.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from refsite.testing import machine, passed_checks, torch_ran
from refsite.testing import snippet_runs
from refsite import snippets
from ranktest import Forkserver, HarnessError, ServerRefused


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("snippets")
    group.addoption("--write-outputs", action="store_true",
                    help="write each snippet variant's expected-output file instead of comparing")
    group.addoption("--snippet-timeout", type=float, default=None, metavar="SECONDS",
                    help=f"timeout for snippets that set none in their Timeout: header (default "
                         f"{snippet_runs.HARNESS_TIMEOUT_S:g} through the harness, "
                         f"{snippet_runs.ALONE_TIMEOUT_S:g} copied alone)")
    group.addoption("--reuse-passed", action="store_true",
                    help="skip a costly snippet check (copied-alone launch, Chinese file, a distributed "
                         "snippet's harness run) that passed before with exactly the same inputs")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: takes more than a few seconds (a snippet that starts processes)")
    config.stash[_SERVER] = _LazyServer()


def pytest_unconfigure(config: pytest.Config) -> None:
    config.stash[_SERVER].close()


@pytest.fixture(scope="session")
def snippet_server(pytestconfig: pytest.Config) -> Forkserver:
    """The project forkserver the snippet items use (teardown rule on, project preload)."""
    return pytestconfig.stash[_SERVER].get()


@pytest.fixture(scope="session")
def snippet_checks(pytestconfig: pytest.Config) -> passed_checks.PassedChecks:
    """Costly snippet checks that passed before with the same inputs (see passed_checks)."""
    return _checks(pytestconfig)


def _checks(config: pytest.Config) -> passed_checks.PassedChecks:
    if _CHECKS not in config.stash:
        config.stash[_CHECKS] = passed_checks.for_config(config)
    return config.stash[_CHECKS]


def _is_snippet(config: pytest.Config, path: Path) -> bool:
    return path.is_relative_to(config.rootpath / "snippets") and snippets.is_snippet(path)


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
    """The session's project forkserver, started at the first snippet (collection costs nothing).

    A server that died is started afresh for the next snippet (:class:`ranktest.Forkserver`
    does); one that refused this machine (:class:`ranktest.ServerRefused`, e.g. CUDA unusable
    in its ranks) is not asked again: every later snippet fails at once with the same reason.
    """

    def __init__(self) -> None:
        self.server: Forkserver | None = None
        self.refused: ServerRefused | None = None

    def get(self) -> Forkserver:
        if self.refused is not None:
            raise ServerRefused(f"{self.refused} (said when the session's first snippet started it)")
        if self.server is None:
            self.server = snippet_runs.project_server()
        try:
            self.server.start()
        except ServerRefused as exc:
            self.refused = exc
            raise
        return self.server

    def close(self) -> None:
        if self.server is not None:
            self.server.close()


_SERVER = pytest.StashKey[_LazyServer]()
_CHECKS = pytest.StashKey[passed_checks.PassedChecks]()

#: How a snippet item ended, in the order the summary lists them.
OWN, CPU, CLEAN, WRITTEN, REUSED, SKIPPED, FAILED = (
    "verified against its own record", "verified against the CPU record", "ran clean, not recorded yet",
    "recorded (make outputs)", "passed before with the same inputs, not run again", "skipped", "failed")
OUTCOMES = (OWN, CPU, CLEAN, WRITTEN, REUSED, SKIPPED, FAILED)


def _skip(reason: str) -> None:
    """Skip, reported at the snippet's location rather than this plugin's."""
    raise pytest.skip.Exception(reason, _use_item_location=True)


class SnippetFailure(Exception):
    """A snippet failed its check; the message is the whole report."""


class SnippetFile(pytest.File):
    def collect(self):
        try:
            spec = snippets.read_spec(self.path)
        except snippets.SpecError as exc:
            raise self.CollectError(str(exc)) from None
        launches = spec.starts_processes
        reusable = spec.multi_process
        for variant in spec.variants:
            item = SnippetItem.from_parent(self, name=f"{self.path.stem}[{variant.id}]",
                                           spec=spec, variant=variant, reusable=reusable)
            if launches:  # a snippet that starts processes of its own takes seconds, not 0.1 s
                item.add_marker(pytest.mark.slow)
            yield item


class SnippetItem(pytest.Item):
    def __init__(self, *, spec: snippets.Spec, variant: snippets.Variant, reusable: bool = False,
                 **kwargs):
        super().__init__(**kwargs)
        self.spec = spec
        self.variant = variant
        self.reusable = reusable
        self.rel = spec.path.relative_to(self.config.rootpath / "snippets").as_posix()

    def runtest(self) -> None:
        # A distributed snippet (torchrun, or one that starts processes) costs a second or more:
        # not run again while it passed with exactly these inputs, if the run reuses passes.
        if not (self.reusable and self.variant.device == "cpu" and not self.config.getoption("write_outputs")):
            return self._check()
        with _checks(self.config).unless_passed(f"snippet {self.rel}[{self.variant.id}]", self.spec.path,
                                                self.spec.record_path(self.variant), repr(self.variant)):
            self._check()

    def _check(self) -> None:
        # Which variant this is, for JUnit readers (make gpu-capture), whatever happens next.
        self.user_properties += [("snippet", self.rel), ("variant", self.variant.id)]
        server = self.config.stash[_SERVER].get()
        self.user_properties.append(("torch", server.capabilities.torch))  # for the summary (torch_ran)
        self._skip_unless_supported(server)
        result = snippet_runs.run_variant(server, self.spec, self.variant,
                                          timeout=self.config.getoption("snippet_timeout"))
        label = f"{self.rel} [{self.variant.id}]"
        stdouts = tuple(r.stdout for r in result.ranks)
        if problem := snippet_runs.clean_run_problem(
                label, result.ok, tuple(r.stderr for r in result.ranks), result.report()):
            raise SnippetFailure(problem)
        if self.config.getoption("write_outputs"):
            caps = server.capabilities
            gpu = None if self.variant.device == "cpu" else machine.gpu_provenance(caps.cuda_devices, caps.gpu)
            record = snippets.Record.from_run(self.spec, self.variant, self.rel, caps.torch, stdouts, gpu)
            snippets.write_record(self.spec.record_path(self.variant), record)
            return self._outcome(WRITTEN)
        compare_with, outcome = self.variant, OWN
        if self.variant.device != "cpu" and not self.spec.record_path(self.variant).exists():
            compare_with = self.spec.reference(self.variant)
            if compare_with is None:
                return self._outcome(CLEAN)
            outcome = CPU
        if problem := snippet_runs.record_problem(self.spec, compare_with, stdouts, label, self.nodeid):
            raise SnippetFailure(problem)
        self._outcome(outcome, compare_with.id if outcome == CPU else None)

    def _outcome(self, outcome: str, compared_with: str | None = None) -> None:
        """Record the item's outcome (one of :data:`OUTCOMES`) and, for a CPU reference, the
        variant whose record it was compared with, each its own user property."""
        self.user_properties.append(("outcome", outcome))
        if compared_with is not None:
            self.user_properties.append(("compared_with", compared_with))

    def _skip_unless_supported(self, server: Forkserver) -> None:
        caps = server.capabilities
        backend = self.variant.backend
        if backend is not None and not caps.backends.get(backend, False):
            _skip(f"backend {backend} is not available in this torch build ({caps.torch})")
        gpus = machine.gpus(caps.cuda_devices)
        if self.variant.gpus > gpus:
            _skip(f"needs {self.variant.gpus} CUDA GPU(s), this machine has {gpus}")
        machine.require(self.spec.needs)

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, (SnippetFailure, HarnessError)):  # the message is the report
            return f"{type(excinfo.value).__name__}: {excinfo.value}" if isinstance(
                excinfo.value, HarnessError) else str(excinfo.value)
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, 0, f"snippets/{self.rel} [{self.variant.id}]"


def _outcome_of(report: pytest.TestReport) -> str | None:
    """The outcome of a snippet item's report, or ``None`` for other tests and phases."""
    if report.nodeid.startswith("tests/") or (
            not report.nodeid.startswith("snippets/") and "/snippets/" not in report.nodeid):
        return None  # the project's own tests of the snippets (tests/snippets/) are not snippets
    if report.failed:
        return FAILED
    if report.skipped:
        reused = isinstance(report.longrepr, tuple) and passed_checks.REASON in report.longrepr[2]
        return REUSED if reused else SKIPPED
    if report.when != "call":
        return None
    return next((value for name, value in report.user_properties if name == "outcome"), None)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config):
    """A CI-style table of the snippet outcomes, and the variants not verified against a record:
    printed last, after pytest's own short summary (``-rs`` lists every skip before it)."""
    result = yield
    _outcome_table(terminalreporter)
    _torch_ran(terminalreporter, config)
    return result


def _outcome_table(terminalreporter) -> None:
    seen: dict[str, str] = {}
    for reports in terminalreporter.stats.values():
        for report in reports:
            if isinstance(report, pytest.TestReport) and (outcome := _outcome_of(report)):
                if seen.get(report.nodeid) != FAILED:
                    seen[report.nodeid] = outcome
    if not seen:
        return
    counts = {o: sum(1 for v in seen.values() if v == o) for o in OUTCOMES}
    terminalreporter.section("snippet outcomes")
    for outcome, count in counts.items():
        if count or outcome not in (WRITTEN,):
            terminalreporter.write_line(f"{count:6d}  {outcome}")
    unverified = sorted(node for node, outcome in seen.items() if outcome == CLEAN)
    if unverified:
        terminalreporter.write_line(f"{CLEAN} (exit 0, nothing on stderr; output not compared):")
        for node in unverified:
            terminalreporter.write_line(f"        {node}")


def _torch_ran(terminalreporter, config: pytest.Config) -> None:
    """Which torch ran the snippets, from the items' reports (under xdist they ran in workers)."""
    ran, failed_cpu = set(), []
    for reports in terminalreporter.stats.values():
        for report in reports:
            if not (isinstance(report, pytest.TestReport) and _outcome_of(report)):
                continue
            ran.update(value for name, value in report.user_properties if name == "torch")
            if report.failed and (found := _snippet_variant(config.rootpath, report.nodeid)):
                if found[1].device == "cpu":
                    failed_cpu.append(found)
    for torch in sorted(ran):
        for line in torch_ran.summary(config.rootpath, torch, failed_cpu):
            terminalreporter.write_line(line)


def _snippet_variant(root: Path, nodeid: str) -> tuple[snippets.Spec, snippets.Variant, str] | None:
    """The snippet, variant and path under ``snippets/`` of a node id such as
    ``snippets/distributed/all_reduce.py::all_reduce[gloo-cpu-2]``."""
    path, _, name = nodeid.partition("::")
    variant_id = name.rpartition("[")[2].rstrip("]")
    try:
        spec = snippets.read_spec(root / path)
    except snippets.SpecError:  # its own failure already says what is wrong with it
        return None
    variant = next((v for v in spec.variants if v.id == variant_id), None)
    return None if variant is None else (spec, variant, spec.path.relative_to(root / "snippets").as_posix())
