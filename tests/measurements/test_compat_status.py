"""The compat check (``python -m refsite.commands.compat.cli --check``): per listed release, the CPU
variants without a current result, on a planted project; a missing result fails the check."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from refsite.measurements import compat_matrix, compat_results, compat_status
from refsite.commands.compat import cli as compat
from tests.support.compat_planted import RELEASES, plant
from tests.support.records import write_outputs


def test_the_count_per_release(tmp_path: Path) -> None:
    root, folder = plant(tmp_path)
    matrix = compat_matrix.load(folder, root)
    assert [(v.key, v.record is not None) for v in matrix.variants] == [
        ("area/a.py [cpu]", True), ("area/b.py [cpu]", True), ("other/c.py [cpu]", True), ("other/d.py [cpu]", False)]
    found = compat_status.statuses(RELEASES, matrix)
    recorded = ("area/a.py [cpu]", "area/b.py [cpu]", "other/c.py [cpu]")
    assert [(s.release, s.state, s.lacking) for s in found] == [
        ("2.4.1", "measured", ()),  # a fails, b differs, c same: each a current result
        ("2.5.1", "measured", ("area/b.py [cpu]",)),  # measured on older code
        ("2.6.0", "not installed", recorded),
        ("2.7.1", "missing", recorded)]


def test_a_changed_record_loses_its_results(tmp_path: Path) -> None:
    root, folder = plant(tmp_path)
    write_outputs(root / "area" / "a.py", "cpu", ("one\n",), root=root)  # recorded again, another output
    found = compat_status.statuses(RELEASES[:2], compat_matrix.load(folder, root))
    assert [s.lacking for s in found] == [("area/a.py [cpu]",), ("area/a.py [cpu]", "area/b.py [cpu]")]


def run_check(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
              releases: list[str]) -> tuple[int, str]:
    root, folder = plant(tmp_path)
    (root / "releases.txt").write_text("# planted\n" + "\n".join(releases) + "\n")
    monkeypatch.setattr(compat, "ROOT", tmp_path)
    monkeypatch.setattr(compat, "OUT", folder)
    monkeypatch.setattr(compat, "RELEASES", root / "releases.txt")
    monkeypatch.setattr(sys, "argv", ["compat", "--check"])
    status = compat.main()
    return status, capsys.readouterr().out


def test_check_fails_naming_the_variant_without_a_result(tmp_path, monkeypatch, capsys) -> None:
    status, out = run_check(tmp_path, monkeypatch, capsys, ["2.4.1", "2.5.1"])
    assert status == 1
    lines = out.splitlines()
    assert lines[0] == "compat results per release (3 recorded CPU variants):"
    assert lines[1] == "  torch 2.4.1  every variant has a current result"
    assert lines[2] == "  torch 2.5.1  1 lack a current result: area/b.py [cpu]"
    assert "not recorded yet, so not measured: other/d.py [cpu]" in out
    assert "run 'make compat'" in out


def test_check_names_a_few_and_counts_the_rest(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.setattr(compat_status, "NAMES_SHOWN", 2)
    status, out = run_check(tmp_path, monkeypatch, capsys, ["2.6.0", "2.7.1"])
    assert status == 1
    assert ("  torch 2.6.0  torch could not be installed; 3 lack a current result: "
            "area/a.py [cpu], area/b.py [cpu] and 1 more") in out
    assert "  torch 2.7.1  no measurement file; 3 lack a current result: " in out


def test_check_passes_when_every_result_is_current(tmp_path, monkeypatch, capsys) -> None:
    status, out = run_check(tmp_path, monkeypatch, capsys, ["2.4.1"])
    assert status == 0
    assert "every variant has a current result" in out and "make compat" not in out


def test_an_install_failure_never_replaces_a_release_that_installed_before(tmp_path, monkeypatch) -> None:
    # A full disk or a lost network says something of this machine, not of the release: the
    # results stay, and the run says so and fails.
    monkeypatch.setattr(compat, "OUT", tmp_path)
    monkeypatch.setattr(compat, "ROOT", tmp_path)
    monkeypatch.setattr(compat, "install", lambda release, env: (False, "OSError: [Errno 28] No space left on device", 1.0))
    kept = tmp_path / "torch-2.9.1.json"
    compat_results.write_run(kept, compat_results.measurement(
        "2.9.1", torch_build="2.9.1+cpu", python="3.11", date="2026-11-26", machine="m", command="c",
        install={"ok": True, "seconds": 1.0}, variants={}))
    before = kept.read_text()
    assert compat.measure("2.9.1", tmp_path / "envs", keep=True, command="c", run_all=False) == 1
    assert kept.read_text() == before
    # a release never installed here records the failure (a release this Python cannot install)
    assert compat.measure("2.0.1", tmp_path / "envs", keep=True, command="c", run_all=False) == 0
    assert '"ok": false' in (tmp_path / "torch-2.0.1.json").read_text()


def test_a_release_line_may_replace_a_pin_and_a_bad_one_is_refused(tmp_path: Path, monkeypatch) -> None:
    listed = tmp_path / "releases.txt"
    listed.write_text("# comment\n2.2.2 numpy==1.26.4  # built against NumPy 1.x\n\n2.4.1\n", encoding="utf-8")
    monkeypatch.setattr(compat, "RELEASES", listed)
    assert compat.listed_releases() == ["2.2.2", "2.4.1"]
    assert "numpy==1.26.4" in compat.requirements("2.2.2")
    default = compat.requirements("2.4.1")
    assert [pin.partition("==")[0] for pin in default] == list(compat.SNIPPET_NEEDS)
    assert "numpy==1.26.4" not in default
    listed.write_text("2.2.2 numpy>=1\n", encoding="utf-8")
    with pytest.raises(SystemExit, match=r"releases.txt:1: 'numpy>=1' must be name==version"):
        compat.listed_releases()


def _judge_with(monkeypatch, judged) -> None:
    """compat_run judges each case with ``judged`` (no forkserver starts), and a stored result is
    current when its ``on`` names the case's (code, record) digests."""
    import types

    from refsite.commands.compat import run as compat_run
    monkeypatch.setattr(compat_run, "_judged", judged)
    monkeypatch.setattr(compat_run, "Forkserver", lambda **kw: types.SimpleNamespace(
        start=lambda wait=True: None, close=lambda: None))
    monkeypatch.setattr(compat_results, "is_current", lambda found, code, record: found.get("on") == (code, record))


def test_a_result_other_than_same_beside_other_runs_is_confirmed_alone(monkeypatch, capsys) -> None:
    # With several jobs, a variant that failed or hung only because others loaded the machine must
    # not be stored as failing: every result but 'same' runs again alone. Snippets that start
    # processes themselves (e, f, g) run beside the others in lanes of their own, longest timeout first.
    import threading
    import types

    from refsite.commands.compat import run as compat_run
    calls: list[str] = []
    running: list[str] = []
    overlaps: list[tuple[str, ...]] = []
    lock = threading.Lock()
    apart = {"e": 30, "f": 240, "g": None}
    limits: dict[str, float | None] = {}
    apart_started = threading.Event()

    def judged(server, case, at_most=None):
        limits[case.key] = at_most
        if case.key in apart:
            apart_started.set()
        elif case.key == "a":
            apart_started.wait(5)
        with lock:
            calls.append(case.key)
            running.append(case.key)
            overlaps.append(tuple(sorted(running)))
        time.sleep(0.05)
        with lock:
            running.remove(case.key)
        if case.key in ("b", "f") and calls.count(case.key) == 1:
            return {"result": "fails", "error_type": "RuntimeError", "error": "under load"}, 0.1
        if case.key in ("c", "d"):
            return {"result": "fails", "error_type": "ImportError" if case.key == "c" else "Timeout", "error": ""}, 0.1
        return {"result": "same"}, 0.1

    _judge_with(monkeypatch, judged)
    cases = [compat_run.Case(n, key, types.SimpleNamespace(starts_processes=key in apart, timeout=apart.get(key)),
                             None, None, {"code_sha256": "c", "record_sha256": "r"})
             for n, key in enumerate("abcdefg", 1)]
    found = compat_run.run_cases(cases, 2, "torch 9.9", 7)
    assert found["b"]["result"] == "same" and found["c"]["error_type"] == "ImportError"
    assert found["f"]["result"] == "same"  # it failed beside another: confirmed alone
    # b and f changed kind from the run beside others to the one alone: run 12 times alone; all
    # 12 the same, so stored as one plain result
    assert "repeated" not in found["b"] and "repeated" not in found["f"]
    assert sorted(calls) == ["a", *["b"] * 13, "c", "c", "d", "d", "e", *["f"] * 13, "g"]
    assert [key for key in calls if key in apart][:3] == ["f", "e", "g"]  # longest declared timeout first
    assert any("a" in group and set(group) & set(apart) for group in overlaps)  # beside the others
    assert any(len(set(group) & set(apart)) >= 2 for group in overlaps)  # several at a time
    assert max(len(set(group) & set(apart)) for group in overlaps) <= min(2, compat_run.APART_LANES)
    assert max(map(len, overlaps)) <= 2 + min(2, compat_run.APART_LANES)
    assert limits == {"a": compat_run.BESIDE_TIMEOUT_S, **dict.fromkeys("bcd"),  # their last runs: alone, whole
                      **dict.fromkeys(apart)}  # beside others for a while at most, but for the ones starting processes
    out = capsys.readouterr().out
    assert "b: same (0.1 s) (alone; was fails beside other runs)" in out
    assert "b: run 12 times alone (fails beside other runs, same alone)" in out
    assert "e: same (0.1 s) (apart from the others: it starts processes itself)" in out
    assert "c: fails: ImportError:  (0.1 s) (alone again: confirmed)" in out  # every confirmation is said
    # torch 2.0: one at a time (its torchrun --standalone listens on a fixed port)
    overlaps.clear()
    compat_run.run_cases(cases, 2, "torch 2.0.1", 7, apart_lanes=1)
    assert not any(len(set(group) & set(apart)) > 1 for group in overlaps)
    calls.clear()
    assert compat_run.run_cases(cases, 1, "torch 9.9", 7)["b"]["result"] == "fails"  # alone already
    assert calls == list("abcdefg")  # one job: one at a time, in order
    # a failure the file already held for this code and record needs no confirmation
    calls.clear()
    earlier = {"c": {"result": "fails", "error_type": "ImportError", "on": ("c", "r")},
               "b": {"result": "fails", "error_type": "RuntimeError", "on": ("old code", "r")}}
    compat_run.run_cases(cases, 2, "torch 9.9", 7, earlier)
    assert sorted(calls) == ["a", *["b"] * 13, "c", "d", "d", "e", *["f"] * 13, "g"]


def test_a_run_stopped_beside_others_runs_again_alone_or_keeps_the_files_timeout(monkeypatch, capsys) -> None:
    # Beside others a run stops after BESIDE_TIMEOUT_S, and that is never stored. 'h' hangs only
    # beside others: alone it prints its record. 'p' hangs every time: alone it runs its declared
    # 180 s, unless the file holds that timeout for this code and record, which is kept.
    import types

    from refsite.commands.compat import errors as compat_errors, run as compat_run
    calls: list[tuple[str, float | None]] = []

    def judged(server, case, at_most=None):
        calls.append((case.key, at_most))
        if case.key == "p" or (case.key == "h" and at_most):
            limit = at_most or case.spec.timeout
            return {"result": "fails", "error_type": "Timeout", "error": compat_errors.timeout_error(limit),
                    "stopped_after_s": limit}, limit
        return {"result": "same"}, 0.1

    _judge_with(monkeypatch, judged)
    cases = [compat_run.Case(n, key, types.SimpleNamespace(starts_processes=False, timeout=180), None, None,
                             {"code_sha256": "c", "record_sha256": "r"}) for n, key in enumerate("hp", 1)]
    beside = compat_run.BESIDE_TIMEOUT_S
    found = compat_run.run_cases(cases, 2, "torch 9.9", 2)
    assert found["h"] == {"result": "same"} and found["p"]["stopped_after_s"] == 180
    assert sorted(calls, key=str) == sorted([("h", beside), ("h", None), ("p", beside), ("p", None)], key=str)
    out = capsys.readouterr().out
    assert f"h: same (0.1 s) (alone; was stopped after {beside:g} s beside other runs)" in out
    calls.clear()
    earlier = {"p": {"result": "fails", "error_type": "Timeout", "error": "still running after 180 s",
                     "stopped_after_s": 180, "date": "2026-11-20", "on": ("c", "r")}}
    found = compat_run.run_cases(cases, 2, "torch 9.9", 2, earlier)
    assert found["p"] is earlier["p"] and ("p", None) not in calls
    assert "(stopped beside others; the file's timeout of 2026-11-20 is kept)" in capsys.readouterr().out
    calls.clear()  # a timeout at another limit (the header changed since) is not this one: it runs alone
    earlier["p"].update(error="still running after 120 s", stopped_after_s=120)
    assert compat_run.run_cases(cases, 2, "torch 9.9", 2, earlier)["p"]["stopped_after_s"] == 180
    assert ("p", None) in calls
    calls.clear()  # one job: nothing runs beside another, so nothing stops early
    compat_run.run_cases(cases, 1, "torch 9.9", 2, earlier)
    assert calls == [("h", None), ("p", None)]


def test_the_next_release_installs_while_one_runs(tmp_path, monkeypatch, capsys) -> None:
    import threading
    events: list[str] = []
    second_installing = threading.Event()

    def install_into(release, envs):
        events.append(f"install {release}")
        if release == "2.5.1":
            second_installing.set()
        return True, "", 1.0

    def measure(release, envs, keep, command, run_all, jobs, again, installed, repeat):
        assert installed == (True, "", 1.0)
        if release == "2.4.1":  # the first runs until the second is installing beside it
            assert second_installing.wait(5), "2.5.1 did not install while 2.4.1 ran"
        events.append(f"measure {release}")
        return 0

    monkeypatch.setattr(compat, "install_into", install_into)
    monkeypatch.setattr(compat, "measure", measure)
    monkeypatch.setattr(compat, "check", lambda: True)
    monkeypatch.setattr(compat, "OUT", tmp_path)
    monkeypatch.setattr(sys, "argv", ["compat", "--releases", "2.4.1,2.5.1,2.6.0", "--envs", str(tmp_path / "envs")])
    assert compat.main() == 0
    assert events.index("install 2.5.1") < events.index("measure 2.4.1")
    assert events.index("install 2.6.0") > events.index("measure 2.4.1")  # one ahead, not all at once
    assert events.count("install 2.6.0") == 1 and events[-1] == "measure 2.6.0"
