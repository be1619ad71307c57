"""``make gpu-capture`` (``refsite.commands.gpu_capture``): three passes over the GPU variants,
and a capture file that says, per variant, whether it was recorded and why not. On this CPU
machine ``REFSITE_ASSUME`` pretends one GPU; the planted scripts read DEVICE but never touch CUDA."""

from __future__ import annotations

import sys

import pytest

from refsite.measurements import gpu_captures

pytest_plugins = ["pytester"]

PLANTED = {
    "own": '"""Run: python own.py\nVariants: cpu, cuda\n"""\nimport os\nprint(os.environ["DEVICE"])\n',
    "breaks": ('"""Run: python breaks.py\nVariants: cpu, cuda\n"""\nimport os\n'
               'if os.environ["DEVICE"] == "cuda":\n    raise RuntimeError("no kernel image for this GPU")\n'
               'print("fine")\n'),
    "pair": ('"""Run: torchrun --nproc-per-node=2 pair.py\nVariants: gloo-cpu, nccl-cuda\n"""\n'
             'print("rank", __import__("os").environ["RANK"])\n'),
}


@pytest.mark.slow
def test_a_capture_records_what_it_can_and_says_why_not_for_the_rest(pytester, monkeypatch):
    pytester.makeini("[pytest]\n")
    pytester.makeconftest('pytest_plugins = ["refsite.testing.collector"]\n')
    area = pytester.mkdir("snippets") / "area"
    area.mkdir()
    for name, text in PLANTED.items():
        (area / f"{name}.py").write_text(text)
    pytester.runpytest_subprocess("snippets", "--write-outputs", "-k", "cpu").assert_outcomes(passed=3)
    monkeypatch.setenv("REFSITE_ASSUME", "gpus=1")
    done = pytester.run(sys.executable, "-m", "refsite.commands.gpu_capture", "--out", "gpu", "--pass-timeout", "120")
    assert done.ret == 1, done.stdout.str()  # breaks.py's cuda variant failed
    capture = gpu_captures.read_capture(pytester.path / "gpu" / "none-refsite-assume-pretends-1.json")
    assert capture.gpu["count"] == 1 and capture.provenance.command == "make gpu-capture"
    found = capture.variants
    assert found["area/own.py [cuda]"] == gpu_captures.VariantCapture(
        check="ran clean, not recorded yet", recorded=True, verify="verified against its own record")
    assert (area / "own.cuda.out.json").exists()
    broken = found["area/breaks.py [cuda]"]
    assert (broken.check, broken.recorded, broken.verify) == ("failed", False, "failed")
    assert broken.reason == "RuntimeError: no kernel image for this GPU"
    assert not (area / "breaks.cuda.out.json").exists()
    assert found["area/pair.py [nccl-cuda-2]"] == gpu_captures.VariantCapture(
        check="skipped", recorded=False, verify="skipped", reason="needs 2 CUDA GPU(s), this machine has 1")
    assert not any("cpu" in key for key in found)  # CPU variants are never recorded again here
    done.stdout.fnmatch_lines(["== gpu-capture check:*", "== gpu-capture record:*", "== gpu-capture verify:*",
                               "*failed: area/breaks.py [[]cuda[]]:*"])
