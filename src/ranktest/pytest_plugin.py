"""The pytest plugin (entry point ``pytest11``): a lazy, session-scoped ``forkserver`` fixture.

It collects nothing and adds no command-line options; three ini options (``pytest.ini``,
``[tool.pytest.ini_options]``) set up the fixture's server: ``ranktest_preload`` (more modules to
import once, beside torch), ``ranktest_check_teardown`` (hold every run to the teardown rule)
and ``ranktest_python`` (the interpreter of the ranks)::

    def test_train(forkserver):
        result = forkserver.run("train.py", world_size=2).check()
        assert "loss" in result.ranks[0].stdout

The server imports torch (about a second or two). It is launched in the background when pytest
starts collecting a test file that names the fixture, so that import overlaps the collection; a
server no collected test asks for is stopped when collection ends. Otherwise it starts at the
first test that asks for it. It stops at the end of the session; with pytest-xdist each worker
has its own.

It also gives a function-scoped ``cluster`` fixture: a virtual cluster of network-namespace
hosts (``ranktest.cluster``) for testing multi-node launches on one machine (as root).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ranktest.client import Forkserver, default_preload


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini("ranktest_preload", type="linelist", default=[],
                  help="ranktest: modules the forkserver imports once, besides torch, "
                       "torch.distributed and numpy (e.g. torch._dynamo)")
    parser.addini("ranktest_check_teardown", type="bool", default=False,
                  help="ranktest: hold every run of the forkserver fixture to the teardown rule")
    parser.addini("ranktest_python", default="",
                  help="ranktest: the Python interpreter of the ranks (default: pytest's own)")


_SERVER = pytest.StashKey[Forkserver]()


def _server(config: pytest.Config) -> Forkserver:
    """The session's server, set up by the ini options (made on first use, not started)."""
    if _SERVER not in config.stash:
        python = config.getini("ranktest_python") or None
        # run_function's ranks load the test's own module, which imports pytest: preloaded once
        # (about 0.05 s a rank otherwise), where the ranks run pytest's own interpreter.
        own = ("pytest",) if python is None else ()
        extra = tuple(config.getini("ranktest_preload"))
        config.stash[_SERVER] = Forkserver(
            python=python, preload=(*default_preload(), *own, *extra),
            check_teardown=config.getini("ranktest_check_teardown"))
    return config.stash[_SERVER]


def pytest_collectstart(collector: pytest.Collector) -> None:
    """Launch the server in the background when pytest is about to import a test file that
    names the fixture: its torch import then overlaps the rest of the collection (the file's
    own imports, often torch too) instead of delaying the first test."""
    if isinstance(collector, pytest.Module) and FIXTURE in collector.path.read_text(errors="replace"):
        _server(collector.config).start(wait=False)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Stop a server launched early that no collected test asks for (``-k``, a mere mention)."""
    if _SERVER in session.config.stash and not any(
            FIXTURE in getattr(item, "fixturenames", ()) for item in session.items):
        session.config.stash[_SERVER].close()


def pytest_unconfigure(config: pytest.Config) -> None:
    if _SERVER in config.stash:
        config.stash[_SERVER].close()


#: The fixture's name, which also marks a test file worth launching the server for.
FIXTURE = "forkserver"


@pytest.fixture(scope="session")
def forkserver(pytestconfig: pytest.Config) -> Iterator[Forkserver]:
    """A :class:`~ranktest.Forkserver` set up by the ``ranktest_*`` ini options, shared by the
    whole session."""
    server = _server(pytestconfig)
    server.start()
    yield server
    server.close()


@pytest.fixture
def cluster(request: pytest.FixtureRequest) -> Iterator:
    """A fresh virtual cluster (``ranktest.cluster.Cluster``) of 2 hosts, ``node0`` and
    ``node1``, removed after the test however it ends. Another size or options through indirect
    parametrization: ``@pytest.mark.parametrize("cluster", [3], indirect=True)`` (a number of
    hosts, a list of names, or a dict of ``Cluster`` arguments). Skips the test, with the reason,
    where the machine cannot run one (not root, no ``ip``, no network namespaces)::

        from ranktest.torchrun import torchrun_argv  # this environment's torchrun, not PATH's

        def test_two_nodes(cluster):
            results = cluster.run_each(lambda host: torchrun_argv(["--nnodes=2", ...]), timeout=120)
            assert all(r.returncode == 0 for r in results)

    What a cluster left behind when its owner and reaper were both killed: ``python -m
    ranktest.cluster.cleanup`` lists it, ``--clean`` removes it.
    """
    from ranktest.cluster import Cluster, unavailable

    if reason := unavailable():
        pytest.skip(f"virtual cluster: {reason}")
    param = getattr(request, "param", 2)
    kwargs = param if isinstance(param, dict) else {"hosts": param}
    with Cluster(**kwargs) as made:
        yield made
