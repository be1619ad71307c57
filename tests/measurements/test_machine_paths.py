"""No measurement file stores a path of the machine that measured: the pages show their error
lines and diffs (``refsite.measurements.machine_paths``)."""

from __future__ import annotations

import json
from pathlib import Path

from refsite.measurements import compat_results, machine_paths
from tests.support.paths import DOCS, REPO

MEASUREMENTS = DOCS / "measurements"


def test_paths_of_the_measuring_machine_are_normalised():
    home = str(Path.home())
    lines = {
        f"{home}/.cache/pytorch-verified-reference/compat/torch-2.5.1/lib/python3.11/site-packages/torch/x.py":
            "<site-packages>/torch/x.py",
        "/root/.pyenv/versions/3.11.7/lib/python3.11/copyreg.py:105: UserWarning": "<python>/copyreg.py:105: UserWarning",
        f"File \"{REPO}/snippets/tensors/save_load.py\", line 17": "File \"<checkout>/snippets/tensors/save_load.py\", line 17",
        "File \"/tmp/tmp9jdnhlse/worker.py\", line 3": "File \"<tmp>/worker.py\", line 3",
        "'--log-dir', '/tmp/tmp2q9zj41w', '--redirects'": "'--log-dir', '<tmp>', '--redirects'",
        f"{home}/notes.txt": "~/notes.txt",
    }
    for line, expected in lines.items():
        assert machine_paths.normalise(line, REPO) == expected
        assert machine_paths.absolute_paths(expected) == []
    # Not paths of the machine: left alone.
    for text in ("see https://pytorch.org/docs/stable/x.html", "a/b/c", "ratio 1/2"):
        assert machine_paths.normalise(text, REPO) == text and machine_paths.absolute_paths(text) == []


def test_no_measurement_file_holds_a_machine_path():
    found = {}
    for path in sorted(MEASUREMENTS.rglob("*.json")):
        if left := machine_paths.absolute_paths(path.read_text(encoding="utf-8")):
            found[str(path.relative_to(REPO))] = left[:3]
    assert found == {}, f"machine paths in measurement files (make compat normalises them): {found}"


def test_a_planted_path_is_found(tmp_path):
    planted = compat_results.measurement(
        "2.0.0", torch_build="2.0.0", python="3.11", date="2026-11-26", machine="m", command="c",
        install={"ok": True}, variants={"a.py [cpu]": {
            "result": "fails", "error": f"from {Path.home()}/x/site-packages/torch/y.py"}})
    assert machine_paths.absolute_paths(json.dumps(planted))
    path = tmp_path / "torch-2.0.0.json"
    path.write_text(json.dumps(planted))
    assert machine_paths.normalise_file(path, REPO)
    assert machine_paths.absolute_paths(path.read_text()) == []
    # On a page: this machine's own paths, not any absolute path the prose may name.
    assert machine_paths.this_machines_paths(f"see {REPO}/snippets/x.py", REPO) == [f"{REPO}/"]
    assert machine_paths.this_machines_paths("PYTHON=/usr/bin/python3", REPO) == []
