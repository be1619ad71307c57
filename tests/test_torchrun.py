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


def check_against_record(spec: snippetspec.Spec, variant: snippetspec.Variant) -> None:
    """One torchrun launch: exit 0, nothing on stderr (no abort, no process group left alive
    at exit), every rank's output as recorded."""
    record = snippetspec.read_record(spec.record_path(variant))
    result = run_alone(spec, variant)
    assert result.returncode == 0, result.report()
    for rank, err in enumerate(result.stderr):
        assert err.strip() == "", f"rank {rank} wrote to stderr:\n{result.report()}"
    got = tuple(snippetspec.normalize_output(out) for out in result.stdout)
    assert got == record.ranks, result.report()


@pytest.mark.slow
@pytest.mark.parametrize("spec, variant", distributed_cpu_variants())
def test_snippet_runs_alone_under_torchrun(spec, variant):
    # One launch, no second chance; `make soak` launches each snippet SOAK_RUNS times.
    check_against_record(spec, variant)


@pytest.mark.slow
@pytest.mark.parametrize("import_first", [False, True])
def test_a_group_left_alive_at_exit_is_reported(tmp_path, import_first):
    # torch._dynamo (which DDP and optimizers import lazily) imports torch.distributed.nn; when
    # that happens after init_process_group, its functions keep the default group as a default
    # argument and destroy_process_group() cannot free it. The forkserver preloads torch._dynamo,
    # so only a fresh process shows it.
    path = tmp_path / "leak.py"
    path.write_text('"""Run: torchrun --standalone --nproc-per-node=2 leak.py"""\n'
                    "import torch.distributed as dist\n"
                    + ("import torch.distributed.nn\n" if import_first else "")
                    + 'dist.init_process_group("gloo")\n'
                    "import torch._dynamo\n"
                    "dist.barrier()\n"
                    "dist.destroy_process_group()\n")
    spec = snippetspec.read_spec(path)
    result = run_alone(spec, spec.variants[0])
    reported = ["a process group was still alive at exit" in err for err in result.stderr]
    assert reported == [not import_first] * 2, result.report()


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
