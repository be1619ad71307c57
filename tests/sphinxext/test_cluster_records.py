"""The multi-node records of ``docs/measurements/cluster/`` (``refsite.measurements.cluster_records``):
each is current (the scripts it ran are unchanged), a changed script makes it stale with a
message naming the record and the command that re-records it, and every ``{cluster-record}``
directive of a page names a record (and a run) that exists. Fast: reads files only."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from refsite.measurements import cluster_records
from tests.support.cluster_pages import record_blocks
from tests.support.paths import REPO

RECORDS = sorted((REPO / cluster_records.RECORDS_DIR).glob("*.json"))


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_every_record_is_current(path: Path) -> None:
    cluster_records.check(path, REPO / "snippets")


def test_a_changed_script_makes_its_record_stale(tmp_path: Path) -> None:
    record = REPO / cluster_records.RECORDS_DIR / "static.json"
    data = cluster_records.read(record)
    rel = next(iter(data.scripts))
    (tmp_path / "snippets" / rel).parent.mkdir(parents=True)
    script = shutil.copy(REPO / "snippets" / rel, tmp_path / "snippets" / rel)
    copy = shutil.copy(record, tmp_path / "static.json")
    cluster_records.check(Path(copy), tmp_path / "snippets")
    Path(script).write_text(Path(script).read_text() + "# changed\n")
    with pytest.raises(cluster_records.RecordError) as caught:
        cluster_records.check(Path(copy), tmp_path / "snippets")
    message = str(caught.value)
    assert str(copy) in message and f"snippets/{rel} changed" in message, message
    assert "make cluster-records SCENARIOS=static" in message, message


def test_a_record_without_provenance_is_refused(tmp_path: Path) -> None:
    data = json.loads((REPO / cluster_records.RECORDS_DIR / "static.json").read_text())
    del data["torch"]
    (tmp_path / "static.json").write_text(json.dumps(data))
    with pytest.raises(cluster_records.RecordError, match="malformed.*torch"):
        cluster_records.read(tmp_path / "static.json")


def test_each_page_directive_names_an_existing_record() -> None:
    found = 0
    for page in sorted((REPO / "docs").glob("*/**/*.md")):
        for record, run in record_blocks(page):
            found += 1
            path = cluster_records.record_path(REPO, record)
            where = f"{page.relative_to(REPO)}: {{cluster-record}} {record}"
            assert path.is_file(), f"{where}: no record {path.relative_to(REPO)}"
            names = [r["name"] for r in cluster_records.read(path).runs]
            assert run is None or run in names, f"{where}: no run {run} in {names}"
    assert found, "no page shows a cluster record"


def test_the_registry_and_the_records_name_the_same_scenarios() -> None:
    from refsite.commands.cluster import cli as measure_cluster

    assert {p.stem for p in RECORDS} == set(cluster_records.SCENARIOS)
    for name, scenario in cluster_records.SCENARIOS.items():
        assert callable(measure_cluster.runner(name)), scenario.runner
        assert all((REPO / "snippets" / rel).is_file() for rel in scenario.scripts), scenario.scripts


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_a_record_reads_back_as_it_is_written(tmp_path: Path, path: Path) -> None:
    # The writer keeps every field; a format-1 record (passed as "N of M") reads as format 2.
    record = cluster_records.read(path)
    cluster_records.write(tmp_path / path.name, record)
    assert cluster_records.read(tmp_path / path.name) == record
    written = json.loads((tmp_path / path.name).read_text())
    original = json.loads(path.read_text())
    assert written.pop("format") == cluster_records.CLUSTER_FORMAT and original.pop("format", 1) in (1, 2)
    if original["results"]["passed"] != written["results"]["passed"]:  # format 1: "N of M"
        assert original["results"]["passed"] == f"{written['results']['passed']} of {written['results']['repeat']}"
        written["results"]["passed"] = original["results"]["passed"]
        if "repeat" not in original["results"]:
            del written["results"]["repeat"]
    assert written == original


def test_an_unknown_format_is_refused_naming_the_fix(tmp_path: Path) -> None:
    data = json.loads((REPO / cluster_records.RECORDS_DIR / "static.json").read_text())
    data["format"] = 9
    (tmp_path / "static.json").write_text(json.dumps(data))
    with pytest.raises(cluster_records.RecordError, match="format 9.*make cluster-records SCENARIOS=static"):
        cluster_records.read(tmp_path / "static.json")
