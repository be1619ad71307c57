"""The provenance every measurement file starts with (``refsite.measurements.provenance``): one way
to describe this machine, one writer (fields in a fixed order, a final newline), and a reader
that names a missing field."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from refsite.measurements import provenance


def test_a_measurement_is_written_head_provenance_body(tmp_path: Path) -> None:
    made = provenance.current("python -m x --y", "2.15.0", load_at="the end")
    assert made.machine.startswith(f"{os.uname().sysname} ") and f"{os.cpu_count()} CPU cores" in made.machine
    assert made.machine.endswith(" at the end") and "load average" in made.machine
    path = tmp_path / "m.json"
    provenance.write_measurement(path, made, {"results": {"a": 1}}, head={"what": "w"})
    text = path.read_text()
    assert text.endswith("}\n") and list(json.loads(text)) == ["what", "command", "torch", "python", "machine",
                                                               "date", "results"]
    assert provenance.read_provenance(json.loads(text), str(path)) == made


def test_a_missing_field_is_named() -> None:
    with pytest.raises(ValueError, match="'torch' is missing"):
        provenance.read_provenance({"command": "c", "machine": "m", "date": "d"}, "f.json")
    assert provenance.read_provenance({"command": "c", "torch": "t", "machine": "m", "date": "d"}, "f").python == ""
