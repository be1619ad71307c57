"""A small planted project for the compat check and the compat data: three recorded snippets in two
areas, one not recorded yet, and measurement files written through the format's own writer."""

from __future__ import annotations

from pathlib import Path

from refsite import snippets
from refsite.measurements import compat_results
from tests.support.records import write_outputs

#: The planted snippets and what each prints (``None``: not recorded yet).
PRINTS = {"area/a.py": "1", "area/b.py": "2", "other/c.py": "3", "other/d.py": None}
#: The releases the planted list names: 2.6.0 could not be installed, 2.7.1 has no file.
RELEASES = ["2.4.1", "2.5.1", "2.6.0", "2.7.1"]


def plant(tmp_path: Path) -> tuple[Path, Path]:
    """The planted snippets folder and measurement folder."""
    root, folder = tmp_path / "snippets", tmp_path / "compat"
    folder.mkdir()
    for rel, printed in PRINTS.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f'"""Prints {rel}.\n\nRun: python {path.name}\n"""\nprint({printed or 0})\n')
        if printed is not None:
            write_outputs(path, "cpu", (f"{printed}\n",), root=root)
    fails = {"result": "fails", "error_type": "ImportError", "error": "cannot import name 'x' from 'torch'"}
    write(folder, root, "2.4.1", {"area/a.py": fails, "area/b.py": {"result": "differs", "diff": ["-2", "+3"]},
                                  "other/c.py": {"result": "same"}})
    write(folder, root, "2.5.1", {"area/a.py": {"result": "same"}, "other/c.py": {"result": "same"},
                                  "area/b.py": {"result": "same", "code_sha256": "0" * 64}})  # older code
    compat_results.write_run(folder / "torch-2.6.0.json", compat_results.measurement(
        "2.6.0", torch_build=None, python="3.11.7", date="2026-11-24", machine="test", command="make compat",
        install={"ok": False, "error": "No matching distribution found for torch==2.6.0"}, variants={}))
    return root, folder


def write(folder: Path, root: Path, release: str, results: dict[str, dict]) -> None:
    """One installed release's file: each snippet's ``cpu`` variant measured on its code and record
    as they are now, unless the result says otherwise."""
    variants = {}
    for rel, result in results.items():
        spec = snippets.read_spec(root / rel)
        record = snippets.read_record(spec.record_path(spec.variants[0]))
        variants[compat_results.variant_key(rel, "cpu")] = {
            "code_sha256": compat_results.code_digest(spec.path), "record_sha256": compat_results.record_digest(record),
            "compare_rules": snippets.COMPARISON_RULES, "date": "2026-11-24", **result}
    compat_results.write_run(folder / f"torch-{release}.json", compat_results.measurement(
        release, torch_build=f"{release}+cpu", python="3.11.7", date="2026-11-24", machine="test",
        command="make compat", install={"ok": True, "seconds": 1.0}, variants=variants))
