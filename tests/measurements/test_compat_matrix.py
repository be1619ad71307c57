"""The one read model of the compat results (``refsite.measurements.compat_matrix``): one definition
of the pinned release, failing loudly when records disagree; outcomes always a list; the chooser
embeds exactly what ``compat/v1`` publishes; and no module but the model and the writer's side
opens a measurement file."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

from refsite import ledger, snippets
from refsite.measurements import compat_export, compat_matrix, compat_results
from refsite.sphinxext import compat_changes
from tests.support.compat_lines import measured
from tests.support.compat_planted import plant
from tests.support.paths import REPO
from tests.support.records import write_outputs

#: The modules that may open measurement files: the format (reader and its one writer), the read
#: model, and the commands that write files (``make compat``, its runner, the path rewriter).
OPENERS = {"refsite/measurements/compat_results.py", "refsite/measurements/compat_matrix.py",
           "refsite/commands/compat/cli.py", "refsite/commands/compat/run.py", "refsite/measurements/machine_paths.py"}
#: What opening one looks like in code.
FILE_CALLS = {"read_run", "read_runs", "previous_results", "write_run"}


def test_cells_outcomes_and_the_pinned_release(tmp_path: Path) -> None:
    root, folder = plant(tmp_path)
    matrix = compat_matrix.load(folder, root)
    assert matrix.pinned == "2.15.0"  # the planted records name 2.15.0+test
    assert [o.result for o in matrix.outcomes("area/a.py [cpu]")] == ["fails", "same", "same"]
    assert [(o.release, o.result) for o in matrix.outcomes("area/b.py [cpu]")] == [
        ("2.4.1", "differs"), ("2.5.1", "unmeasured"), ("2.15.0", "same")]
    assert matrix.cell("area/b.py [cpu]", "2.5.1") is None and matrix.cell("area/b.py [cpu]", "2.15.0+cpu").result == "same"
    assert matrix.has_results("area/b.py [cpu]") and matrix.variant("other/d.py [cpu]").record is None
    assert matrix.lacking("2.5.1") == ("area/b.py [cpu]",) and matrix.lacking("2.7.1") is None
    assert set(matrix.files) >= {folder / "torch-2.4.1.json", root / "area" / "a.py", root / "area" / "a.cpu.out.json"}
    with pytest.raises(KeyError, match="area/z.py"):
        matrix.cell("area/z.py [cpu]", "2.4.1")


def test_records_of_another_torch_fail_naming_them_and_the_fix(tmp_path: Path) -> None:
    root, folder = plant(tmp_path)
    assert compat_matrix.load(folder, root, pin="2.15.0").pinned == "2.15.0"
    with pytest.raises(snippets.SpecError, match=r"not all made with the pin, torch 2.14.0 .*torch 2.15.0: "
                                                 r"area/a.py \[cpu\].*make outputs"):
        compat_matrix.load(folder, root, pin="2.14.0")
    write_outputs(root / "other" / "c.py", "cpu", ("3\n",), root=root, torch="2.13.0+cpu")
    with pytest.raises(snippets.SpecError, match=r"not all made with one torch .*torch 2.13.0: other/c.py \[cpu\]"):
        compat_matrix.load(folder, root)


def test_the_chooser_embeds_exactly_what_compat_v1_publishes() -> None:
    matrix = compat_matrix.load(REPO / "docs" / "measurements" / "compat", REPO / "snippets")
    published = {entry["key"]: entry for name, content in compat_export.export_matrix(matrix).items()
                 if name.startswith("areas/") for entry in content["variants"]}
    releases, pinned, rows = compat_changes.rows(matrix)
    assert rows and {row["key"]: row for row in rows} == published
    assert pinned == "2.15" and releases[-1] == pinned


def openers(tooling: Path) -> list[str]:
    """The modules under ``tooling`` outside :data:`OPENERS` that open measurement files."""
    found = []
    for path in sorted((tooling / "refsite").rglob("*.py")):
        rel = path.relative_to(tooling).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
        names |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) for alias in node.names}
        texts = {node.value for node in ast.walk(tree) if isinstance(node, ast.Constant) and isinstance(node.value, str)}
        if rel not in OPENERS and (names & FILE_CALLS or any("torch-*.json" in text for text in texts)):
            found.append(rel)
    return found


def test_only_the_model_and_the_writers_open_measurement_files() -> None:
    found = openers(REPO / "tooling")
    assert found == [], f"{found} open compat measurement files: read them through refsite.measurements.compat_matrix"


def test_the_check_catches_a_planted_reader(tmp_path: Path) -> None:
    for rel, text in {"refsite/sphinxext/reader.py": "from refsite.snippets import compat_results\n"
                                                    "runs = compat_results.read_runs(folder)\n",
                      "refsite/lint/globber.py": "files = folder.glob('torch-*.json')\n",
                      "refsite/measurements/compat_matrix.py": "runs = compat_results.read_runs(folder)\n"}.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    assert openers(tmp_path) == ["refsite/lint/globber.py", "refsite/sphinxext/reader.py"]


@functools.cache
def _snippet_since(rel: str) -> tuple[str | None, ...]:
    """Per CPU variant of a snippet, the oldest release from which it runs, read here from the
    measurement files as JSON (``None``: no results)."""
    spec = snippets.read_spec(REPO / "snippets" / rel)
    found = []
    for variant in (v for v in spec.variants if v.device == "cpu"):
        truth = measured(REPO / "docs" / "measurements" / "compat", spec, variant, REPO / "snippets")
        if not truth:
            found.append(None)
            continue
        releases = sorted(truth, key=compat_results.release_key)
        first = len(releases) - 1
        while first > 0 and truth[releases[first - 1]] and not truth[releases[first - 1]].startswith("fails"):
            first -= 1
        found.append(releases[first])
    return tuple(found)


def _since_from_files(snippets_used: list[str]) -> str | None:
    """The 'works since' of an entry: the newest of its snippets' variants."""
    found = [since for rel in snippets_used for since in _snippet_since(rel)]
    if not found or None in found:
        return None
    return max(found, key=compat_results.release_key)


def test_every_entry_with_cpu_examples_says_since_when_as_the_files_say() -> None:
    matrix = compat_matrix.load(REPO / "docs" / "measurements" / "compat", REPO / "snippets")
    problems, said = [], 0
    for entry in ledger.entries(ledger.read(REPO / "docs" / "ledger")):
        if not entry.shown:
            continue
        since = matrix.works_since(list(entry.snippets))
        shown = compat_results.short_release(since.release) if since else None
        said += shown is not None
        if shown != (truth := _since_from_files(list(entry.snippets))):
            problems.append(f"{entry.name}: works since {shown}, the files say {truth}")
    assert not problems, "\n".join(problems)
    assert said > 1000, f"only {said} entries say since when"
