"""The compat measurement files and the lines the pages make of them: a result holds only for the
code and record it was measured with; each panel's line says what the files say."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from refsite.interface_words import words
from refsite.sphinxext import compat_notes
from refsite.commands.compat import cli as compat
from refsite.measurements import compat_matrix, compat_results
from refsite import project, snippets
from tests.support.compat_lines import line_problems, measured
from tests.support.paths import REPO


SNIPPETS = REPO / "snippets"
COMPAT = REPO / compat_results.COMPAT_DIR


def demo(tmp_path: Path) -> tuple[snippets.Spec, snippets.Variant, snippets.Record]:
    path = tmp_path / "area" / "demo.py"
    path.parent.mkdir()
    path.write_text('"""Demo.\n\nRun: python demo.py\n"""\nprint(1)  # one\n')
    spec = snippets.read_spec(path)
    variant = spec.variants[0]
    record = snippets.Record.from_run(spec, variant, "area/demo.py", "2.15.0+cu132", ("1\n",))
    snippets.write_record(spec.record_path(variant), record)
    return spec, variant, record


def write_run(folder: Path, release: str, spec, record, result: dict, installed: bool = True) -> None:
    key = compat_results.variant_key("area/demo.py", "cpu")
    measured_on = {"code_sha256": compat_results.code_digest(spec.path),
                   "record_sha256": compat_results.record_digest(record),
                   "compare_rules": snippets.COMPARISON_RULES}
    data = {"format": 1, "torch": release, "torch_build": release, "python": "3.11.7", "date": "2026-11-24",
            "machine": "test", "command": "make compat", "install": {"ok": installed},
            "variants": {key: {**measured_on, **result}} if installed else {}}
    (folder / f"torch-{release}.json").write_text(json.dumps(data))


@pytest.fixture
def measured_demo(tmp_path: Path):
    spec, variant, record = demo(tmp_path)
    folder = tmp_path / "compat"
    folder.mkdir()
    write_run(folder, "2.4.1", spec, record, {"result": "fails", "error_type": "AttributeError",
                                               "error": "module 'torch' has no attribute 'accelerator'"})
    write_run(folder, "2.5.1", spec, record, {"result": "differs", "diff": ["-1", "+2"]})
    for release in ("2.13.0", "2.14.1"):
        write_run(folder, release, spec, record, {"result": "same"})
    write_run(folder, "2.3.1", spec, record, {}, installed=False)
    return spec, variant, record, folder


def line(spec, variant, record, folder, language="en") -> str:
    """The panel's line, with ``record`` as the variant's record on disk."""
    if snippets.read_record(spec.record_path(variant)) != record:
        snippets.write_record(spec.record_path(variant), record)
    matrix = compat_matrix.load(folder, spec.path.parents[1])
    found = compat_notes.panel_outcomes(matrix, spec, variant, spec.path.parents[1])
    return compat_notes.line_text(found, words(language))


def test_the_line_groups_releases_newest_first(measured_demo) -> None:
    spec, variant, record, folder = measured_demo
    assert line(spec, variant, record, folder) == (
        "Same output on torch 2.13–2.15; differs on 2.5; fails on 2.4: AttributeError")
    assert line(spec, variant, record, folder, "zh") == (
        "torch 2.13–2.15 输出相同；2.5 输出不同；2.4 运行失败：AttributeError")


def test_a_reworded_comment_keeps_the_results_changed_code_or_record_loses_them(measured_demo) -> None:
    spec, variant, record, folder = measured_demo
    spec.path.write_text(spec.path.read_text().replace("# one", "# the number one").replace("Demo.", "A demo."))
    assert line(spec, variant, record, folder).startswith("Same output on torch 2.13–2.15")
    changed_record = snippets.Record.from_run(spec, variant, "area/demo.py", "2.15.0", ("2\n",))
    assert line(spec, variant, changed_record, folder).startswith("No results on older torch releases yet")
    spec.path.write_text(spec.path.read_text().replace("print(1)", "print(1.0)"))
    assert line(spec, variant, record, folder).startswith("No results on older torch releases yet")


def test_the_checker_reads_the_files_itself_and_catches_a_wrong_line(measured_demo) -> None:
    spec, variant, record, folder = measured_demo
    truth = measured(folder, spec, variant, spec.path.parents[1])
    right = line(spec, variant, record, folder)
    assert line_problems(right, truth) == []
    planted = right.replace("Same output on torch 2.13–2.15; differs on 2.5", "Same output on torch 2.5–2.15")
    assert "on torch 2.5 the files say 'differs', the line says 'same'" in line_problems(planted, truth)[0]
    planted = right.replace("AttributeError", "TypeError")
    problem = line_problems(planted, truth)[0]
    assert "on torch 2.4 the files say \"fails: AttributeError" in problem and "the line says 'fails: TypeError'" in problem
    assert "names 2.3–2.15" in line_problems("Same output on torch 2.3–2.15", truth)[0]
    assert "cannot read 'No results on older torch releases yet'" in line_problems(
        "No results on older torch releases yet", truth)[0]
    assert line_problems("No results on older torch releases yet", {}) == []
    assert "the files hold no result" in line_problems("Same output on torch 2.15", {})[0]


def test_a_malformed_file_names_itself_and_the_fix(tmp_path: Path) -> None:
    (tmp_path / "torch-2.4.1.json").write_text('{"format": 1, "torch": "2.4.1"}')
    with pytest.raises(snippets.SpecError, match="torch-2.4.1.json: compat results do not read .*make compat"):
        compat_results.read_runs(tmp_path)


def test_every_cpu_variant_line_agrees_with_the_committed_files() -> None:
    """What each panel will say, for every CPU variant of the project, held to the files."""
    matrix = compat_matrix.load(COMPAT, SNIPPETS, pin=project.pinned_torch(REPO))
    problems = []
    for path in snippets.snippet_paths(SNIPPETS):
        spec = snippets.read_spec(path)
        for variant in (v for v in spec.variants if v.device == "cpu"):
            found = compat_notes.panel_outcomes(matrix, spec, variant, SNIPPETS)
            text = compat_notes.line_text(found, words("en"))
            problems += line_problems(text, measured(COMPAT, spec, variant, SNIPPETS))
            for shown in (text, compat_notes.line_text(found, words("zh"))):
                if len(shown) > compat_notes.LINE_CHARS:
                    problems.append(f"{path.name} [{variant.id}]: {len(shown)} characters: {shown}")
    assert not problems, "\n".join(problems)


def test_the_release_list_is_the_last_patch_of_every_minor_from_2_0_before_the_pin() -> None:
    minors = [compat_results.short_release(release) for release in compat.listed_releases()]
    pin = (REPO / "Makefile").read_text().split("TORCH ?= ")[1].split()[0]
    assert minors == [f"2.{n}" for n in range(0, int(pin.split(".")[1]))]


def test_a_release_measured_on_other_code_breaks_the_span(measured_demo) -> None:
    spec, variant, record, folder = measured_demo
    data = json.loads((folder / "torch-2.14.1.json").read_text())
    data["variants"]["area/demo.py [cpu]"]["code_sha256"] = "0" * 64  # measured on an older version
    (folder / "torch-2.14.1.json").write_text(json.dumps(data))
    text = line(spec, variant, record, folder)
    assert text.startswith("Same output on torch 2.15; same on 2.13; differs on 2.5; ")
    truth = measured(folder, spec, variant, spec.path.parents[1])
    assert line_problems(text, truth) == []
    assert "on torch 2.14 the files say None, the line says 'same'" in line_problems(
        text.replace("Same output on torch 2.15; same on 2.13", "Same output on torch 2.13–2.15"),
        truth)[0]


def test_a_difference_judged_under_older_comparison_rules_is_not_current(measured_demo) -> None:
    spec, variant, record, folder = measured_demo
    for release in ("2.5.1", "2.13.0"):  # a differs and a same, both judged under older rules
        data = json.loads((folder / f"torch-{release}.json").read_text())
        data["variants"]["area/demo.py [cpu]"]["compare_rules"] = snippets.COMPARISON_RULES - 1
        (folder / f"torch-{release}.json").write_text(json.dumps(data))
    text = line(spec, variant, record, folder)
    assert text.startswith("Same output on torch 2.13–2.15; fails on 2.4")  # 2.5: judged again by make compat
    assert line_problems(text, measured(folder, spec, variant, spec.path.parents[1])) == []


def _file(**override: object) -> dict:
    data = compat_results.measurement(
        "2.4.1", torch_build="2.4.1+cu121", python="3.11.7", date="2026-11-26", machine="test",
        command="make compat", install={"ok": True, "seconds": 1.0},
        variants={"area/demo.py [cpu]": {"result": compat_results.SAME}},
        timing={"run_seconds": 2.0, "kept_from_earlier_runs": 0, "counts": {"same": 1}})
    return {**data, **override}


def test_the_one_writer_round_trips_and_refuses_what_the_reader_would(tmp_path: Path) -> None:
    path = tmp_path / "torch-2.4.1.json"
    assert compat_results.write_run(path, _file())
    assert not compat_results.write_run(path, _file()), "an unchanged file is not rewritten"
    run = compat_results.read_run(path)
    assert (run.torch, run.installed, list(run.results)) == ("2.4.1", True, ["area/demo.py [cpu]"])
    assert list(json.loads(path.read_text())) == ["format", "torch", "torch_build", "python", "date", "machine",
                                                  "command", "install", "run_seconds",
                                                  "kept_from_earlier_runs", "counts", "variants"]
    for bad, message in [({"format": 2}, "unknown format 2 .this tooling reads format 1"),
                         ({"variants": {"k": {"result": "maybe"}}}, "k: unknown result 'maybe'"),
                         ({"install": {"seconds": 1}}, "install.ok must be true or false")]:
        with pytest.raises(ValueError, match=message):
            compat_results.write_run(tmp_path / "other.json", _file(**bad))
        assert not (tmp_path / "other.json").exists()


def test_the_line_names_exception_types_and_one_fold_holds_every_release() -> None:
    from docutils import nodes

    message = "module 'torch' has no attribute 'accelerator', " * 6
    found = [compat_results.Outcome("2.4.1", compat_results.FAILS, (), "AttributeError", message),
             compat_results.Outcome("2.5.1", compat_results.DIFFERS, ("-1", "+2")),
             compat_results.Outcome("2.15.0", compat_results.SAME)]
    text = compat_notes.line_text(found, words("en"))
    assert text == "Same output on torch 2.15; differs on 2.5; fails on 2.4: AttributeError"
    assert line_problems(text, {"2.4": f"fails: AttributeError: {message}", "2.5": "differs", "2.15": "same"}) == []
    box = compat_notes.compat_line(found, words("zh"))
    assert [b.astext() for b in box.findall(nodes.literal_block)] == [
        f"torch 2.5: 输出不同\n  -1\n  +2\ntorch 2.4: AttributeError: {message}"]
    assert "各版本的结果" in box.astext() and box.astext().count("<details") == 1
    assert len(list(box.findall(nodes.raw))) == 2  # one fold: its opening and its end


def test_a_long_line_sums_up_its_oldest_releases() -> None:
    kinds = ["ModuleNotFoundError", "ImportError", "AttributeError", "RuntimeError", "TypeError", "ValueError"]
    found = [compat_results.Outcome(f"2.{n}.0", compat_results.FAILS, (), kinds[n % 6], "x") for n in range(12)]
    found += [compat_results.Outcome("2.13.0", compat_results.DIFFERS, ("-1",)),
              compat_results.Outcome("2.14.0", compat_results.SAME), compat_results.Outcome("2.15.0", compat_results.SAME)]
    text = compat_notes.line_text(found, words("en"))
    assert len(text) <= compat_notes.LINE_CHARS and text.split("; ")[-1].startswith("fails on 2.0–"), text
    truth = {f"2.{n}": f"fails: {kinds[n % 6]}: x" for n in range(12)} | {"2.13": "differs", "2.14": "same", "2.15": "same"}
    assert line_problems(text, truth) == []
    planted = dict(truth, **{"2.3": "same"})  # a release in the summed-up span that did not fail
    assert "on torch 2.3 the files say 'same'" in line_problems(text, planted)[0]
    mixed = found[:3] + [compat_results.Outcome("2.3.0", compat_results.SAME)] + found[4:]
    text = compat_notes.line_text(mixed, words("en"))
    assert len(text) <= compat_notes.LINE_CHARS and "mixed on 2.0–" in text, text
    assert line_problems(text, {**truth, "2.3": "same"}) == []
    assert len(compat_notes.line_text(mixed, words("zh"))) <= compat_notes.LINE_CHARS


def test_a_result_that_varies_from_run_to_run_is_stored_and_shown_as_k_of_n(tmp_path: Path) -> None:
    from docutils import nodes

    ok = {"result": compat_results.SAME}
    hang = {"result": compat_results.FAILS, "error_type": "Timeout", "error": "still running after 60 s",
            "stopped_after_s": 60.0}
    stored = compat_results.repeated([hang, *[ok] * 10, hang])
    assert stored == {"result": "same", "repeated": {"runs": 12, "counts": {"same": 10, "hangs": 2}}}
    assert compat_results.repeated([ok, ok]) == ok, "runs of one kind are one plain result"
    path = tmp_path / "torch-2.6.0.json"
    compat_results.write_run(path, _file(torch="2.6.0", variants={"area/demo.py [cpu]": stored}))
    outcome = compat_results.read_run(path).results["area/demo.py [cpu]"]
    assert outcome["repeated"]["counts"] == {"same": 10, "hangs": 2}
    for bad in ({"runs": 12, "counts": {"same": 11}},  # one kind: not a repeated result
                {"runs": 12, "counts": {"same": 10, "hangs": 1}},  # counts not adding up
                {"runs": 12, "counts": {"same": 1, "hangs": 11}}):  # stored as the less frequent kind
        with pytest.raises(ValueError, match="repeated"):
            compat_results.write_run(tmp_path / "bad.json", _file(variants={"k": {**ok, "repeated": bad}}))
    found = [compat_results.Outcome("2.5.1", compat_results.SAME),
             compat_results.Outcome("2.6.0", compat_results.SAME, counts=(("same", 10), ("hangs", 2))),
             compat_results.Outcome("2.7.1", compat_results.SAME),
             compat_results.Outcome("2.15.0", compat_results.SAME)]
    text = compat_notes.line_text(found, words("en"))
    assert text == "Same output on torch 2.7–2.15; same in 10 of 12 runs on 2.6, hangs in 2; same on 2.5", text
    assert compat_notes.line_text(found, words("zh")).split("；")[1] == "2.6 运行 12 次，10 次输出相同、2 次卡住"
    truth = {"2.5": "same", "2.6": "same in 10 of 12, hangs in 2", "2.7": "same", "2.15": "same"}
    assert line_problems(text, truth) == []
    assert line_problems(text, dict(truth, **{"2.6": "same in 11 of 12, hangs in 1"})), "a wrong count is caught"
    box = compat_notes.compat_line(found, words("en"))
    assert [b.astext() for b in box.findall(nodes.literal_block)] == [
        "torch 2.6: same in 10 of 12 runs, hangs in 2"]
    box = compat_notes.compat_line(found, words("zh"))
    assert [b.astext() for b in box.findall(nodes.literal_block)] == ["torch 2.6: 运行 12 次，10 次输出相同、2 次卡住"]
