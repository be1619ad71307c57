"""The snippet header and the expected-output file: parsed strictly, errors that name the fix."""

from __future__ import annotations

import json

import pytest

from refsite import snippets
from refsite.snippets import Record, SpecError, read_record, read_spec, write_record


def snippet(tmp_path, header: str, name: str = "demo.py"):
    path = tmp_path / name
    path.write_text(f'"""Demo.\n\n{header}\n"""\nprint(1)\n')
    return path


def test_distributed_header_gives_variants_gpus_and_commands(tmp_path):
    spec = read_spec(snippet(tmp_path, "Run: torchrun --standalone --nproc-per-node=4 demo.py\n"
                                       "Variants: gloo-cpu, nccl-cuda, gloo-cuda\nTimeout: 20"))
    assert [v.id for v in spec.variants] == ["gloo-cpu-4", "nccl-cuda-4", "gloo-cuda-4"]
    assert [v.gpus for v in spec.variants] == [0, 4, 1]  # nccl: one GPU per rank
    assert spec.timeout == 20 and spec.world_size == 4 and spec.distributed
    assert spec.command(spec.variants[0]) == "torchrun --standalone --nproc-per-node=4 demo.py"
    assert spec.command(spec.variants[1]) == (
        "DEVICE=cuda BACKEND=nccl torchrun --standalone --nproc-per-node=4 demo.py")
    assert spec.record_path(spec.variants[1]).name == "demo.nccl-cuda-4.out.json"


def test_a_quoted_launcher_is_read_the_same_everywhere(tmp_path):
    # read_spec reads the Run: line as a shell would; so does Spec.torchrun.
    spec = read_spec(snippet(tmp_path, "Run: 'torchrun' --nproc-per-node=2 demo.py"))
    assert [v.id for v in spec.variants] == ["gloo-cpu-2"] and spec.torchrun and spec.multi_process


def test_single_process_defaults_and_gpu_override(tmp_path):
    spec = read_spec(snippet(tmp_path, "Run: python demo.py"))
    assert [v.id for v in spec.variants] == ["cpu"] and not spec.distributed
    spec = read_spec(snippet(tmp_path, "Run: python demo.py\nVariants: cuda\nGPUs: 2"))
    assert spec.variants[0].gpus == 2 and spec.variants[0].env == {"DEVICE": "cuda"}


@pytest.mark.parametrize("header, message", [
    ("", "has no 'Run:' line"),
    ("Run: python other.py", "must name the file itself (demo.py)"),
    ("Run: torchrun demo.py", "needs --nproc-per-node=N"),
    ("Run: bash demo.py", "must start with 'python' or 'torchrun'"),
    ("Run: python demo.py\nVariants: gloo-cpu", "must be a device (cpu or cuda)"),
    ("Run: torchrun --nproc-per-node=2 demo.py\nVariants: cpu", "must be BACKEND-DEVICE"),
    ("Run: torchrun --nproc-per-node=2 demo.py\nVariants: glue-cpu", "unknown backend 'glue'"),
    ("Run: python demo.py\nVariants: tpu", "unknown device 'tpu'"),
    ("Run: python demo.py\nVariants: cpu, cpu", "lists a variant twice"),
    ("Run: python demo.py\nGPUs: two", "'GPUs:' must be a positive whole number"),
    ("Run: python demo.py\nRun: python demo.py", "'Run:' appears twice"),
])
def test_bad_headers_name_the_file_and_the_problem(tmp_path, header, message):
    with pytest.raises(SpecError, match="demo.py") as excinfo:
        read_spec(snippet(tmp_path, header))
    assert message in str(excinfo.value)


def test_missing_and_invalid_python_files(tmp_path):
    with pytest.raises(SpecError, match="snippet not found"):
        read_spec(tmp_path / "absent.py")
    bad = tmp_path / "broken.py"
    bad.write_text("def (:\n")
    with pytest.raises(SpecError, match="broken.py:1: not valid Python"):
        read_spec(bad)


def record(**changes) -> Record:
    fields = dict(snippet="a/demo.py", variant="gloo-cpu-2", source_sha256="0" * 64,
                  torch="2.13.0", backend="gloo", device="cpu", world_size=2,
                  command="torchrun --nproc-per-node=2 demo.py",
                  ranks=("rank 0\n\nend\n", "rank 1 ünïcode 张量\n"))
    return Record(**{**fields, **changes})


def test_record_round_trip_keeps_lines_blank_lines_and_unicode(tmp_path):
    path = tmp_path / "demo.gloo-cpu-2.out.json"
    write_record(path, record())
    assert read_record(path) == record()
    assert "张量" in path.read_text(encoding="utf-8")  # readable in diffs, not \\u-escaped


GPU = snippets.GpuProvenance(model="NVIDIA H200", count=1, driver="580.159.04", cuda="13.0", nccl="2.28.9",
                             date="2026-11-26")


def test_a_gpu_record_names_its_gpus_and_a_cpu_record_has_none(tmp_path):
    gpu_record = record(variant="nccl-cuda-2", backend="nccl", device="cuda", gpu=GPU)
    path = tmp_path / "demo.nccl-cuda-2.out.json"
    write_record(path, gpu_record)
    data = json.loads(path.read_text())
    assert data["format"] == 2 and data["gpu"] == {"model": "NVIDIA H200", "count": 1,
                                                   "driver": "580.159.04", "cuda": "13.0", "nccl": "2.28.9",
                                                   "date": "2026-11-26"}
    assert read_record(path) == gpu_record
    write_record(path, record())
    assert "gpu" not in json.loads(path.read_text())
    # A record of format 1 (before records named their GPU) still reads, with no GPU.
    data = {**json.loads(path.read_text()), "format": 1}
    path.write_text(json.dumps(data))
    assert read_record(path) == record()


def test_the_runner_names_gpus_exactly_for_gpu_variants(tmp_path):
    path = tmp_path / "demo.py"
    path.write_text('"""Run: python demo.py\nVariants: cpu, cuda\n"""\nprint(1)\n')
    spec = read_spec(path)
    cpu, cuda = spec.variants
    assert Record.from_run(spec, cuda, "area/demo.py", "2.15.0", ("1\n",), GPU).gpu == GPU
    with pytest.raises(ValueError, match="names its GPUs exactly when the variant runs on a GPU"):
        Record.from_run(spec, cuda, "area/demo.py", "2.15.0", ("1\n",))
    with pytest.raises(ValueError, match="names its GPUs exactly when the variant runs on a GPU"):
        Record.from_run(spec, cpu, "area/demo.py", "2.15.0", ("1\n",), GPU)


@pytest.mark.parametrize("damage, message", [
    (lambda d: d.pop("torch"), "malformed"),
    (lambda d: d.update(format=99), "malformed (unknown format version)"),
    (lambda d: d["ranks"].reverse(), "ranks are not 0..N-1 in order"),
    (lambda d: d["ranks"].pop(), "has 1 ranks for world size 2"),
])
def test_damaged_records_are_refused_with_the_fix(tmp_path, damage, message):
    path = tmp_path / "demo.gloo-cpu-2.out.json"
    write_record(path, record())
    data = json.loads(path.read_text())
    damage(data)
    path.write_text(json.dumps(data))
    with pytest.raises(SpecError, match="regenerate it with 'make outputs'") as excinfo:
        read_record(path)
    assert message in str(excinfo.value) and path.name in str(excinfo.value)


def test_stale_reason_compares_the_source_hash(tmp_path):
    spec = read_spec(snippet(tmp_path, "Run: python demo.py"))
    fresh = record(source_sha256=spec.source_sha256())
    assert snippets.stale_reason(spec, fresh) is None
    spec.path.write_text(spec.path.read_text() + "# edited\n")
    assert snippets.stale_reason(spec, fresh) == "demo.py changed since this output was recorded"


def test_a_variant_may_declare_its_own_world_size(tmp_path):
    path = tmp_path / "ws.py"
    path.write_text('"""Run: torchrun --standalone --nproc-per-node=2 ws.py\n'
                    'Variants: gloo-cpu, nccl-cuda, nccl-cuda-1\nOutput: same on all devices\n"""\n')
    spec = read_spec(path)
    cpu, nccl, nccl1 = spec.variants
    assert (nccl.id, nccl.gpus, nccl1.id, nccl1.name, nccl1.world_size, nccl1.gpus) == (
        "nccl-cuda-2", 2, "nccl-cuda-1", "nccl-cuda-1", 1, 1)
    assert spec.command(nccl1) == "DEVICE=cuda BACKEND=nccl torchrun --standalone --nproc-per-node=1 ws.py"
    # The CPU record of the same world size is the reference; there is none for one rank.
    assert spec.reference(nccl) == cpu and spec.reference(nccl1) is None and spec.reference(cpu) is None


def test_output_can_only_say_same_on_all_devices(tmp_path):
    path = tmp_path / "bad.py"
    path.write_text('"""Run: python bad.py\nOutput: device dependent\n"""\n')
    with pytest.raises(SpecError, match="'Output:' can only say 'same on all devices'"):
        read_spec(path)


def test_outputs_are_compared_without_cpp_line_numbers_but_with_everything_else():
    said = "[enforce fail at …/pair.cc:456] op.preamble.length <= op.nbytes. 8 vs 4.\n"
    want = record(ranks=(said, "ProcessGroupGloo.cpp:67] Rank 1 failed\n"))
    moved = (said.replace(":456]", ":464]"), "ProcessGroupGloo.cpp:69] Rank 1 failed\n")
    assert snippets.output_diff(want, moved, "demo.gloo-cpu-2.out.json") == []
    changed = (moved[0].replace("8 vs 4", "8 vs 2"), moved[1])
    assert "+[enforce fail at …/pair.cc:464] op.preamble.length <= op.nbytes. 8 vs 2." in \
        snippets.output_diff(want, changed, "demo.gloo-cpu-2.out.json")
    assert snippets.comparable("size 12:34 at line.py:7\n") == "size 12:34 at line.py:7\n"


def test_gloo_connection_log_lines_are_not_output():
    want = record(ranks=("rank 0 after: [10, 12, 14]\n", "rank 1\n"))
    logged = ("[Gloo] Rank 0 is connected to 1 peer ranks. Expected number of connected peer ranks is : 1\n"
              "rank 0 after: [10, 12, 14]\n", "rank 1\n")
    assert snippets.output_diff(want, logged, "demo.gloo-cpu-2.out.json") == []
    assert snippets.output_diff(want, ("[Gloo] Rank 0 said something else\nrank 0 after: [10, 12, 14]\n",
                                          "rank 1\n"), "demo.gloo-cpu-2.out.json")


GLOO = "[Gloo] Rank {} is connected to 1 peer ranks. Expected number of connected peer ranks is : 1\n"


@pytest.mark.parametrize("printed", [
    "  rank 0: exit code 0\n    " + GLOO.format(0) + "    done\n",  # a child's output, indented by the script
    "  rank 0: exit code 0\n" + "[Gloo] Rank " + GLOO.format(0) + "1 is connected to 1 peer ranks. "
    "Expected number of connected peer ranks is : 1\n    done\n",  # rank 0's line written inside rank 1's
    "  rank 0: exit code 0\n" + "[Gloo] Rank 1 is connected to " + GLOO.format(0) + "1 peer ranks. "
    "Expected number of connected peer ranks is : 1\n    done\n",  # split elsewhere
])
def test_gloo_lines_indented_or_split_by_another_process_are_not_output(printed):
    assert snippets.comparable(printed) == "  rank 0: exit code 0\n    done\n"


def test_a_gloo_line_inside_a_line_of_the_scripts_is_output():
    # the script joined a child's lines: that line is what the script printed, and it differs
    joined = "  rank 0: exit code 0; " + GLOO.format(0)
    assert snippets.comparable(joined) == joined
    assert snippets.comparable("[Gloo] Rank 0 said something else\n") == "[Gloo] Rank 0 said something else\n"


@pytest.mark.parametrize(("code", "starts"), [
    ("import subprocess\n", True),
    ("import torch.multiprocessing as mp\n", True),
    ("from concurrent.futures import ProcessPoolExecutor\n", True),
    ("import torch.distributed as dist\ndist.init_process_group('gloo')\n", True),
    ("import torch.distributed.run\n", True),  # torchrun's main, called in-process
    ("from torch.distributed.launcher.api import elastic_launch\n", True),
    ("print('torchrun and multiprocessing are only words here')  # init_process_group\n", False),
    ("import torch\n", False),
])
def test_starts_processes_is_read_from_the_code_not_its_text(tmp_path, code: str, starts: bool) -> None:
    path = tmp_path / "demo.py"
    path.write_text(f'"""Mentions torchrun and init_process_group in prose.\n\nRun: python demo.py\n"""\n{code}')
    spec = read_spec(path)
    assert spec.starts_processes is starts and spec.multi_process is starts and not spec.torchrun
