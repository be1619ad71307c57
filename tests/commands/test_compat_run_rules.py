"""How compat_run judges: what a result says of a failure (``compat_errors.first_error``): the exception's type and
the first line of its message, also when its name says nothing of errors or the process aborted;
which variants ``--again`` runs although their results are current."""

from __future__ import annotations

from ranktest.results import RankResult, RunResult


def failed(*stderrs: str, code: int = 1, first: int = 0) -> RunResult:
    ranks = tuple(RankResult(rank, code if rank == first else 0, "", err, False) for rank, err in enumerate(stderrs))
    return RunResult("x.py", len(ranks), ranks, first, False, 60.0, 1.0)


def first_error(result: RunResult) -> tuple[str, str]:
    from refsite.commands.compat import errors as compat_errors
    return compat_errors.first_error(result)


def test_an_exception_line_names_the_error() -> None:
    stderr = "Traceback (most recent call last):\n  File \"x.py\", line 3\n    f()\nValueError: loss is NaN\n"
    assert first_error(failed(stderr)) == ("ValueError", "loss is NaN")


def test_an_exception_whose_name_says_nothing_of_errors_is_the_line_that_ends_its_traceback() -> None:
    stderr = ("Traceback (most recent call last):\n  File \"x.py\", line 70, in launch\n"
              "    done = subprocess.run(...)\n"
              "subprocess.TimeoutExpired: Command '['python', '-m', 'torch.distributed.run']' timed out after 200 seconds\n")
    assert first_error(failed(stderr)) == (
        "TimeoutExpired", "Command '['python', '-m', 'torch.distributed.run']' timed out after 200 seconds")
    # chained: the last traceback's end, not the first one's
    chained = ("Traceback (most recent call last):\n  File \"x.py\", line 1\nKeyboardStop\n\n"
               "During handling of the above exception, another exception occurred:\n\n" + stderr)
    assert first_error(failed(chained))[0] == "TimeoutExpired"
    assert first_error(failed("Traceback (most recent call last):\n  File \"x.py\", line 1\nStopIteration\n")) == (
        "StopIteration", "")


def test_an_abort_says_what_the_cpp_exception_said() -> None:
    stderr = ("terminate called after throwing an instance of 'c10::Error'\n"
              "  what():  DLPack tensor is not on a supported device\n"
              "Exception raised from fromDLPack at /pytorch/aten/src/ATen/DLConvertor.cpp:290\n")
    assert first_error(failed(stderr, code=-6)) == (
        "killed by signal SIGABRT", "c10::Error: DLPack tensor is not on a supported device")


def test_otherwise_the_first_line_the_failed_rank_printed() -> None:
    assert first_error(failed("", "just a line\nanother\n", first=1)) == ("exit code 1", "just a line")


def test_again_picks_variants_by_pattern() -> None:
    from refsite.commands.compat import run as compat_run
    key = "distributed/elastic_restart.py [cpu]"
    assert compat_run._asked_again(key, "distributed/elastic_restart.py*")
    assert compat_run._asked_again(key, "tensors/*, distributed/*")
    assert not compat_run._asked_again(key, "")
    assert not compat_run._asked_again(key, "distributed/elastic_restart.py")  # the variant is part of the key


def test_a_result_that_changes_kind_between_runs_is_repeated() -> None:
    from refsite.commands.compat import repeats
    same, hang = {"result": "same"}, {"result": "fails", "error_type": "Timeout", "error": "", "stopped_after_s": 60}
    crash = {"result": "fails", "error_type": "RuntimeError", "error": "x"}
    assert repeats.reason(same, hang, None, False) == "hangs beside other runs, same alone"
    assert repeats.reason(hang, None, same, False) == "hangs now, same in the file"
    assert repeats.reason(crash, hang, None, False) == "hangs beside other runs, fails alone"
    assert repeats.reason(same, None, {**same, "repeated": {}}, False) == "its stored result varied from run to run"
    assert repeats.reason(same, None, None, True) == "asked for with --repeat"
    # Planted: the same kind twice settles it.
    assert repeats.reason(crash, crash, crash, False) == ""
