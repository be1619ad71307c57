"""The change files of a torch pin move (``refsite.measurements.change_files``): the committed one reads,
writes back byte for byte, and a missing, malformed or unknown-format file is refused naming the fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from refsite.measurements import change_files
from tests.support.paths import REPO

FILES = sorted((REPO / change_files.CHANGES_DIR).glob("*.json"))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_a_change_file_reads_and_writes_back_byte_for_byte(tmp_path: Path, path: Path) -> None:
    found = change_files.read(path)
    assert found.name == path.name and found.compared >= len(found.changes) > 0
    assert change_files.write(tmp_path, found).read_bytes() == path.read_bytes()


@pytest.mark.parametrize(("text", "says"), [
    (None, "no such change file"),
    ("{", "JSONDecodeError"),
    ('{"format": 7}', "format 7, this tooling reads 1"),
    ('{"format": 1, "from": {}}', "KeyError"),
])
def test_a_bad_change_file_is_refused_naming_the_fix(tmp_path: Path, text: str | None, says: str) -> None:
    path = tmp_path / "torch-1-to-2.json"
    if text is not None:
        path.write_text(text)
    with pytest.raises(change_files.ChangeFileError) as caught:
        change_files.read(path)
    assert says in str(caught.value) and change_files.FIX_COMMAND in str(caught.value)
