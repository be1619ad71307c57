"""The compat data the site publishes (``compat/v1/``): every file valid against its JSON Schema,
and every result what the measurement files say (read here as JSON); a planted
wrong value, a planted schema violation and a planted schema keyword outside the subset fail."""

from __future__ import annotations

import copy
import json
from pathlib import Path

from refsite import project, snippets
from refsite.measurements import compat_export, compat_results, compat_schema
from tests.support.compat_planted import plant
from tests.support.json_schema_subset import schema_problems, validate
from tests.support.paths import REPO

SCHEMAS = {"index.json": compat_schema.INDEX}


def schema_errors(files: dict[str, dict]) -> list[str]:
    """Each file against its schema (the index's, or an area's), read from the files themselves."""
    schemas = {name.removeprefix("schema/").removesuffix(".schema.json"): files[name]
               for name in files if name.startswith("schema/")}
    errors = [f"{name}: {p}" for name, schema in schemas.items() for p in schema_problems(schema)]
    if errors:  # no data is checked against a schema this validator cannot read whole
        return errors
    for name, content in files.items():
        kind = "index" if name == "index.json" else "area" if name.startswith("areas/") else None
        if kind:
            errors += [f"{name}: {e}" for e in validate(content, schemas[kind])]
    return errors


def expected(compat_dir: Path, root: Path) -> dict[str, dict[str, dict]]:
    """Variant key -> release -> result, read here from the measurement files as JSON (not
    through the read model that made the export)."""
    files = [json.loads(p.read_text(encoding="utf-8")) for p in compat_dir.glob("torch-*.json")]
    installed = [data for data in files if data["install"]["ok"]]
    found = {}
    for path in snippets.snippet_paths(root):
        spec = snippets.read_spec(path)
        for variant in (v for v in spec.variants if v.device == "cpu"):
            try:
                record = snippets.read_record(spec.record_path(variant))
            except snippets.SpecError:
                continue
            key = compat_results.variant_key(path.relative_to(root).as_posix(), variant.id)
            code, digest = compat_results.code_digest(path), compat_results.record_digest(record)
            results = {}
            for data in installed:
                result = data["variants"].get(key)
                current = (result and result["code_sha256"] == code and result["record_sha256"] == digest
                           and (result["result"] != "differs" or result.get("compare_rules") == snippets.COMPARISON_RULES))
                results[data["torch"]] = ({k: v for k, v in result.items() if k in ("result", "diff", "error_type", "error", "repeated")}
                                          if current else {"result": "unmeasured"})
            results[record.torch.split("+")[0]] = {"result": "same"}
            found[key] = dict(sorted(results.items(), key=lambda item: compat_results.release_key(item[0])))
    return found


def held(files: dict[str, dict], compat_dir: Path, root: Path) -> list[str]:
    """Where the published files say something the measurement files do not."""
    truth = expected(compat_dir, root)
    problems = []
    published = {}
    for name, content in files.items():
        if name.startswith("areas/"):
            for entry in content["variants"]:
                published[entry["key"]] = entry["results"]
                if name != f"areas/{entry['snippet'].split('/')[0]}.json":
                    problems.append(f"{entry['key']} is in {name}")
    for key in sorted(set(truth) | set(published)):
        if truth.get(key) != published.get(key):
            problems.append(f"{key}: the files say {truth.get(key)}, the data says {published.get(key)}")
    index = files["index.json"]
    listed = {f"{e['snippet']} [{v}]" for e in index["examples"] for v in e["variants"]}
    if listed != set(truth):
        problems.append(f"the index lists {sorted(listed ^ set(truth))} wrongly")
    runs = [(r.torch, r.installed) for r in compat_results.read_runs(compat_dir)]
    if [(r["torch"], r["installed"]) for r in index["releases"]] != runs:
        problems.append(f"the index's releases are not {runs}")
    return problems


def test_the_planted_project_exports_valid_files_that_hold_to_the_measurements(tmp_path: Path) -> None:
    root, folder = plant(tmp_path)
    files = compat_export.export(folder, root)
    assert sorted(files) == ["areas/area.json", "areas/other.json", "index.json",
                             "schema/area.schema.json", "schema/index.schema.json"]
    assert schema_errors(files) == []
    assert held(files, folder, root) == []
    index = files["index.json"]
    assert (index["format"], index["pinned"], index["pinned_build"]) == (1, "2.15.0", "2.15.0+test")
    assert index["releases"][2] == {"torch": "2.6.0", "torch_build": None, "python": "3.11.7", "date": "2026-11-24",
                                    "machine": "test", "installed": False,
                                    "install_error": "No matching distribution found for torch==2.6.0"}
    assert index["examples"][0] == {"snippet": "area/a.py", "area": "area", "title": "Prints area/a.py.",
                                    "variants": ["cpu"], "file": "areas/area.json"}
    area = files["areas/area.json"]
    assert area["releases"] == ["2.4.1", "2.5.1", "2.15.0"]
    a, b = area["variants"]
    assert a["results"] == {"2.4.1": {"result": "fails", "error_type": "ImportError",
                                      "error": "cannot import name 'x' from 'torch'"},
                            "2.5.1": {"result": "same"}, "2.15.0": {"result": "same"}}
    assert b["results"] == {"2.4.1": {"result": "differs", "diff": ["-2", "+3"]},
                            "2.5.1": {"result": "unmeasured"}, "2.15.0": {"result": "same"}}


def test_a_planted_wrong_value_or_shape_is_caught(tmp_path: Path) -> None:
    root, folder = plant(tmp_path)
    files = compat_export.export(folder, root)
    wrong = copy.deepcopy(files)
    wrong["areas/area.json"]["variants"][1]["results"]["2.5.1"] = {"result": "same"}  # it has no current result
    assert held(wrong, folder, root) == [
        "area/b.py [cpu]: the files say {'2.4.1': {'result': 'differs', 'diff': ['-2', '+3']}, '2.5.1': "
        "{'result': 'unmeasured'}, '2.15.0': {'result': 'same'}}, the data says {'2.4.1': {'result': 'differs', "
        "'diff': ['-2', '+3']}, '2.5.1': {'result': 'same'}, '2.15.0': {'result': 'same'}}"]
    assert schema_errors(wrong) == []  # well formed, only wrong
    broken = copy.deepcopy(files)
    del broken["areas/area.json"]["variants"][0]["results"]["2.4.1"]["error_type"]
    broken["index.json"]["releases"][0]["installed"] = "yes"
    broken["areas/other.json"]["variants"][0]["results"]["2.4"] = {"result": "same"}
    errors = schema_errors(broken)
    assert any(e.startswith("areas/area.json: $.variants[0].results['2.4.1']: ") and
               e.endswith("matches 0 of the oneOf schemas, not one") for e in errors), errors
    assert any("installed: 'yes' is not of type boolean" in e for e in errors)
    assert any("(key '2.4'): '2.4' does not match" in e for e in errors)
    outside = copy.deepcopy(files)
    outside["schema/area.schema.json"]["$defs"]["variant"]["minProperties"] = 1
    assert schema_errors(outside) == ["area: $.$defs.variant: keyword 'minProperties' outside the subset"]


def test_the_repository_exports_valid_files_that_hold_to_the_measurements() -> None:
    folder, root = REPO / compat_results.COMPAT_DIR, REPO / "snippets"
    files = compat_export.export(folder, root, pin=project.pinned_torch(REPO))
    assert schema_errors(files) == []
    assert held(files, folder, root) == []


def test_write_replaces_the_folder_and_the_files_read_back(tmp_path: Path) -> None:
    root, folder = plant(tmp_path)
    out = tmp_path / "site" / compat_export.FOLDER
    (out / "areas").mkdir(parents=True)
    (out / "areas" / "gone.json").write_text("{}")
    files = compat_export.export(folder, root)
    compat_export.write(out, files)
    written = {p.relative_to(out).as_posix(): json.loads(p.read_text(encoding="utf-8"))
               for p in out.rglob("*.json")}
    assert written == files
    assert out.as_posix().endswith("site/compat/v1")
