"""Each distributed snippet, copied alone into an empty directory, runs under real torchrun with
the command written in it and prints what its expected-output file records for each rank."""

from __future__ import annotations

from pathlib import Path

import pytest

import snippetspec
from harness.torchrun import run_alone

SNIPPETS = Path(__file__).resolve().parent.parent / "snippets"


def distributed_cpu_variants() -> list:
    cases = []
    for path in sorted(SNIPPETS.rglob("*.py")):
        if not snippetspec.is_snippet(path):
            continue
        spec = snippetspec.read_spec(path)
        if spec.run.startswith("torchrun"):
            cases += [pytest.param(spec, v, id=f"{path.relative_to(SNIPPETS).with_suffix('')}[{v.id}]")
                      for v in spec.variants if v.device == "cpu"]
    return cases


#: torch 2.13's gloo backend can abort a finished DDP process at exit, from a gloo worker
#: thread ("terminate called without an active exception", SIGABRT), after every rank printed
#: its whole output. Measured here under load: 2 in 40 torchrun runs of parallel/ddp_step.py
#: ending `del model; dist.destroy_process_group()`, 1 in 40 with `dist.barrier()` between.
KNOWN_EXIT_ABORT = "terminate called without an active exception"


def is_known_exit_abort(result, record) -> bool:
    """The upstream abort at exit, after every rank printed exactly its recorded output."""
    got = tuple(snippetspec.normalize_output(out) for out in result.stdout)
    return (result.returncode != 0 and got == record.ranks
            and any(KNOWN_EXIT_ABORT in err for err in result.stderr))


def check_against_record(spec: snippetspec.Spec, variant: snippetspec.Variant,
                         known_abort_retries: int = 0) -> None:
    """One torchrun launch: exit 0, no abort noise, every rank's output as recorded.

    With ``known_abort_retries``, a launch that ends in :data:`KNOWN_EXIT_ABORT` after the
    complete recorded output is launched again, that many times at most.
    """
    record = snippetspec.read_record(spec.record_path(variant))
    result = run_alone(spec, variant)
    for _ in range(known_abort_retries):
        if not is_known_exit_abort(result, record):
            break
        result = run_alone(spec, variant)
    assert result.returncode == 0, result.report()
    for rank, err in enumerate(result.stderr):
        assert "terminate called" not in err and "NOT been destroyed" not in err, result.report()
        assert err.strip() == "", f"rank {rank} wrote to stderr:\n{result.report()}"
    got = tuple(snippetspec.normalize_output(out) for out in result.stdout)
    assert got == record.ranks, result.report()


@pytest.mark.slow
@pytest.mark.parametrize("spec, variant", distributed_cpu_variants())
def test_snippet_runs_alone_under_torchrun(spec, variant):
    # One launch per snippet; the upstream abort at exit (see KNOWN_EXIT_ABORT) gets two more
    # launches. `make soak` launches each snippet SOAK_RUNS times with no second chance.
    check_against_record(spec, variant, known_abort_retries=2)


def test_only_the_known_abort_after_complete_output_gets_another_launch():
    from harness.torchrun import TorchrunResult

    record = snippetspec.Record("a.py", "gloo-cpu-2", "0" * 64, "2.13.0", "gloo", "cpu", 2,
                                "torchrun --nproc-per-node=2 a.py", ("r0\n", "r1\n"))
    abort = (KNOWN_EXIT_ABORT + "\n", "")
    assert is_known_exit_abort(TorchrunResult(1, "", ("r0\n", "r1\n"), abort), record)
    assert not is_known_exit_abort(TorchrunResult(1, "", ("r0\n", ""), abort), record)  # cut short
    assert not is_known_exit_abort(TorchrunResult(1, "", ("r0\n", "r1\n"), ("boom\n", "")), record)
    assert not is_known_exit_abort(TorchrunResult(0, "", ("r0\n", "r1\n"), ("", "")), record)


@pytest.mark.slow
def test_a_timed_out_launch_leaves_no_worker_behind(tmp_path, monkeypatch):
    # torchrun starts each worker in a session of its own: killing the launcher's process group
    # alone would leave them running.
    import subprocess

    from harness.torchrun import run_alone

    pids = tmp_path / "pids"
    pids.mkdir()
    path = tmp_path / "hang.py"
    path.write_text('"""Run: torchrun --standalone --nproc-per-node=2 hang.py"""\n'
                    "import os, pathlib, time\n"
                    'pathlib.Path(os.environ["PID_DIR"], os.environ["RANK"]).write_text(str(os.getpid()))\n'
                    "time.sleep(300)\n")
    monkeypatch.setenv("PID_DIR", str(pids))
    spec = snippetspec.read_spec(path)
    with pytest.raises(subprocess.TimeoutExpired):
        run_alone(spec, spec.variants[0], timeout=15)
    workers = [int(p.read_text()) for p in pids.iterdir()]
    assert len(workers) == 2, "both workers should have started within the timeout"
    alive = [pid for pid in workers if Path(f"/proc/{pid}").exists()
             and Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] not in "ZX"]
    assert not alive, f"workers outlived the timed-out launch: {alive}"
