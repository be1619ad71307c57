"""The ``{recorded}`` and ``{measured}`` roles: quotations checked against their records.

The records here are written by :func:`tests.support.records.record_by_running` from a tiny snippet's real
output, never stored; a Sphinx build on a small tree shows that a quotation its record does not
hold becomes a warning naming the page, the record and the missing text.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import bs4
import pytest

from refsite import snippets
from tests.support.records import record_by_running
from refsite.sphinxext.recorded_quotes import QuoteError, measured_value, recorded_text

SNIPPET = '''"""Print two lines per rank.

Run: torchrun --standalone --nproc-per-node=2 pair.py
Variants: gloo-cpu, gloo-cuda
"""
import os

rank = os.environ.get("RANK", "0")
print(f"rank {rank}: hello")
print(f"rank {rank}: error: step must be positive")
'''


def _record(root: Path) -> None:
    """Write ``area/pair.py`` and the record of its gloo-cpu variant, from a real run."""
    snippet = root / "area" / "pair.py"
    snippet.parent.mkdir(parents=True)
    snippet.write_text(SNIPPET)
    record_by_running(snippet, snippets.read_spec(snippet).variants[0].id, root=root)


@pytest.fixture
def snippet_root(tmp_path: Path) -> Path:
    root = tmp_path / "snippets"
    _record(root)
    return root


@pytest.fixture
def measurements(tmp_path: Path) -> Path:
    directory = tmp_path / "measurements"
    directory.mkdir()
    (directory / "m.json").write_text(json.dumps({
        "command": "python tests/measure.py", "torch": "2.13.0+cpu", "machine": "test",
        "date": "2026-01-01", "results": {"a": {"text": "1 of 10 launches"}}}))
    (directory / "bare.json").write_text(json.dumps({"results": {"a": 1}}))
    return directory


@pytest.mark.parametrize(
    ("quote", "shown"),
    [
        ("area/pair.py rank 1: rank 1: hello", "rank 1: hello"),
        ("area/pair.py[gloo-cpu-2] rank 0: error: step must be positive",
         "error: step must be positive"),
        ("area/pair.py: rank 1: error", "rank 1: error"),
    ],
)
def test_recorded_quotation_held_by_its_record(snippet_root: Path, quote: str, shown: str) -> None:
    text, files = recorded_text(snippet_root, quote)
    assert text == shown
    assert files[-1].name == "pair.gloo-cpu-2.out.json"


@pytest.mark.parametrize(
    ("quote", "message"),
    [
        ("area/pair.py rank 0: rank 1: hello", "(rank 0) does not hold the quoted text"),
        ("area/pair.py: goodbye", "(any rank) does not hold the quoted text 'goodbye'"),
        ("area/pair.py rank 2: hello", "has no rank 2"),
        ("area/pair.py[nccl-cuda-2]: hello", "has no variant 'nccl-cuda-2'"),
        ("area/pair.py[gloo-cuda-2]: hello", "expected output is missing"),
        ("area/other.py: hello", "snippet 'area/other.py' not found"),
        ("hello", "cannot parse"),
    ],
)
def test_recorded_quotation_not_held_fails(snippet_root: Path, quote: str, message: str) -> None:
    with pytest.raises(QuoteError, match=None) as info:
        recorded_text(snippet_root, quote)
    assert message in str(info.value)


def test_stale_record_fails(snippet_root: Path) -> None:
    snippet = snippet_root / "area" / "pair.py"
    snippet.write_text(SNIPPET.replace("hello", "hi"))
    with pytest.raises(QuoteError, match="is stale"):
        recorded_text(snippet_root, "area/pair.py: hello")


def test_measured_value(measurements: Path) -> None:
    assert measured_value(measurements, "m.json: results.a.text")[0] == "1 of 10 launches"
    assert measured_value(measurements, "m.json: date")[0] == "2026-01-01"
    for quote, message in [("m.json: results.b", "has no key"),
                           ("m.json: results", "not a single value"),
                           ("bare.json: results.a", "lacks its provenance"),
                           ("none.json: results.a", "not found")]:
        with pytest.raises(QuoteError, match=message):
            measured_value(measurements, quote)


def test_build_fails_on_a_quotation_its_record_does_not_hold(tmp_path: Path,
                                                              snippet_root: Path,
                                                              measurements: Path) -> None:
    """A real ``sphinx-build -W``: the good quotations render, the bad ones fail the build."""
    src = tmp_path / "src"
    src.mkdir()
    (src / "conf.py").write_text(  # the extensions are installed (docs/_ext)
        "extensions = ['myst_parser', 'refsite.sphinxext.verified_snippets', 'refsite.sphinxext.recorded_quotes']\n"
        f"verified_snippets_root = {str(snippet_root)!r}\n"
        f"recorded_quotes_measurements = {str(measurements)!r}\n")
    good = ("# Quotes\n\nRank 1 says {recorded}`area/pair.py rank 1: rank 1: hello`, in "
            "{measured}`m.json: results.a.text` (measured {measured}`m.json: date`).\n")
    (src / "index.md").write_text(good)
    out = tmp_path / "out"
    command = [sys.executable, "-m", "sphinx", "-W", "-q", "-b", "html", str(src), str(out)]
    done = subprocess.run(command, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    page = bs4.BeautifulSoup((out / "index.html").read_text(encoding="utf-8"), "html.parser")
    shown = [node.get_text() for node in page.select("code.rq-recorded, code.rq-measured")]
    assert shown == ["rank 1: hello", "1 of 10 launches", "2026-01-01"]

    (src / "index.md").write_text(good + "\nBut {recorded}`area/pair.py rank 0: goodbye`.\n")
    done = subprocess.run(command, capture_output=True, text=True)
    assert done.returncode != 0
    assert "index.md:5" in done.stderr and "pair.gloo-cpu-2.out.json" in done.stderr
    assert "'goodbye'" in done.stderr, done.stderr
