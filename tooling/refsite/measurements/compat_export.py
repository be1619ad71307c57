"""The compat results as data for tools outside the project: the ``compat/v1/`` folder of the
built site, made from the measurement files (``refsite.measurements.compat_results``) and the
snippets' records.

- ``index.json``: the layout's version (``format``), every release measured with its
  provenance (torch build, Python, date, machine, whether it installed), the pinned release the
  records were made with, the areas and their files, and every example with its CPU variants;
- ``areas/<area>.json``: one file per area, each CPU variant with its result on every release:
  ``same``, ``differs`` (with the diff), ``fails`` (the exception type and the first line of its
  message) or ``unmeasured`` (no current result: measured on another version of the code or
  record); the pinned release is ``same``, the record itself; a result that varied from run
  to run also has ``repeated`` (how many runs, and how many of each kind). The results are those of
  ``compat_results.outcomes``, which the pages show;
- ``schema/index.schema.json``, ``schema/area.schema.json``: their JSON Schemas
  (``refsite.measurements.compat_schema``).

One file per area, not per variant: a tool fetches an area's results in one request, the folder
holds a handful of files instead of one per variant, and a variant's name (``area/x.py
[gloo-cpu-2]``) never has to become a file name. The output is the same for the same inputs (no
date of its own), so an unchanged site stays byte for byte the same. Standard library only.
"""

from __future__ import annotations

import ast
import collections
import json
import shutil
from pathlib import Path

from refsite.measurements import compat_matrix, compat_results, compat_schema
from refsite.measurements.compat_matrix import Matrix
from refsite.measurements.compat_results import ReleaseRun

#: The version of the published layout, and the folder it goes to under the site's root.
EXPORT_FORMAT = 1
FOLDER = Path("compat", f"v{EXPORT_FORMAT}")


def area_file(area: str) -> str:
    """Where an area's results are, relative to ``index.json``."""
    return f"areas/{area}.json"


def _release(run: ReleaseRun) -> dict:
    entry = {"torch": run.torch, "torch_build": run.provenance.get("torch_build"),
             "python": run.provenance.get("python", ""), "date": run.date,
             "machine": run.provenance.get("machine", ""), "installed": run.installed}
    if not run.installed:
        entry["install_error"] = run.install_error
    if run.provenance.get("requirements"):
        entry["requirements"] = list(run.provenance["requirements"])
    return entry


def _title(path: Path) -> str:
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    return doc.strip().splitlines()[0] if doc.strip() else ""


def variant_results(matrix: Matrix, key: str) -> dict[str, dict]:
    """Release -> result of one recorded variant, oldest release first: the matrix's
    outcomes (every installed release, ``unmeasured`` where it has no current result, and the
    pinned release ``same``)."""
    results = {}
    for outcome in matrix.outcomes(key):
        entry: dict = {"result": outcome.result}
        if outcome.result == compat_results.DIFFERS:
            entry["diff"] = list(outcome.diff)
        elif outcome.result == compat_results.FAILS:
            entry.update(error_type=outcome.error_type, error=outcome.error)
        if outcome.counts:
            entry["repeated"] = {"runs": outcome.runs, "counts": dict(outcome.counts)}
        results[outcome.release] = entry
    return results


def variant_entry(matrix: Matrix, key: str) -> dict:
    """One variant as an area file lists it (the release chooser embeds the same)."""
    variant = matrix.variant(key)
    return {"key": variant.key, "snippet": variant.snippet, "variant": variant.variant.id,
            "record_torch": variant.record.torch, "results": variant_results(matrix, key)}


def export(compat_dir: Path, snippet_root: Path, pin: str | None = None) -> dict[str, dict]:
    """Every file of ``compat/v1/``: path under it -> its JSON content (a snippet whose header
    does not read, or a variant not recorded yet, is left out: its page says what is wrong)."""
    return export_matrix(compat_matrix.load(compat_dir, snippet_root, pin=pin, skip_unreadable=True))


def export_matrix(matrix: Matrix) -> dict[str, dict]:
    """:func:`export` of a matrix already read."""
    builds = collections.Counter(v.record.torch for v in matrix.recorded)  # one release, maybe two builds
    pinned_build = min(builds, key=lambda build: (-builds[build], build), default="")
    areas: dict[str, list[dict]] = {}
    examples: dict[str, dict] = {}
    for variant in matrix.recorded:
        areas.setdefault(variant.area, []).append(variant_entry(matrix, variant.key))
        example = examples.setdefault(variant.snippet, {
            "snippet": variant.snippet, "area": variant.area, "title": _title(variant.spec.path),
            "variants": [], "file": area_file(variant.area)})
        example["variants"].append(variant.variant.id)
    files: dict[str, dict] = {"index.json": {
        "format": EXPORT_FORMAT, "pinned": matrix.pinned, "pinned_build": pinned_build,
        "releases": [_release(run) for run in matrix.runs],
        "areas": [{"area": area, "file": area_file(area)} for area in areas],
        "examples": list(examples.values())}}
    for area, entries in areas.items():
        releases = {release for entry in entries for release in entry["results"]}
        files[area_file(area)] = {"format": EXPORT_FORMAT, "area": area,
                                  "releases": sorted(releases, key=compat_results.release_key),
                                  "variants": entries}
    files.update(compat_schema.FILES)
    return files


def write(folder: Path, files: dict[str, dict]) -> None:
    """Write ``files`` (from :func:`export`) into ``folder``, replacing what was there."""
    if folder.exists():
        shutil.rmtree(folder)
    for name, content in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(content, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
