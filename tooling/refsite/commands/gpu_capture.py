"""``make gpu-capture``: on a GPU machine, check every GPU variant it can run, record them, check
them against the new records, and write what happened to each in
``docs/measurements/gpu/<gpu>.json`` (:mod:`refsite.measurements.gpu_captures`).

Three pytest passes over ``snippets``, each selecting the GPU variants only (``-k "cuda and not
cpu"``: a CPU record is never made again with a runner's own torch): the check (as ``make
doctest``), ``--write-outputs`` (as ``make outputs``), and the check again. Each streams its
progress, stops at its time limit, and leaves a JUnit report in ``_build/gpu-capture/``, whose
per-variant properties (``snippet``, ``variant``, ``outcome``) and failure or skip messages make
the capture file. Exits non-zero when a variant failed the last pass.

Usage: python -m refsite.commands.gpu_capture [--pass-timeout S] [--out DIR] [pytest arguments]
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ElementTree
from pathlib import Path

from ranktest import Forkserver
from refsite.measurements import gpu_captures, machine_paths, provenance
from refsite.testing import machine
from refsite.testing.collector import FAILED, SKIPPED, WRITTEN

SELECT = ("-k", "cuda and not cpu")
PASSES = (("check", ()), ("record", ("--write-outputs",)), ("verify", ()))
REPORTS = Path("_build", "gpu-capture")
#: What a variant that a pass never reported gets (the pass stopped at its time limit, or crashed).
NOT_RUN = "not run"


#: The line a Python traceback ends with: ``RuntimeError: ...``, ``torch.OutOfMemoryError: ...``.
_EXCEPTION = re.compile(r"^\s*((?:\w+\.)*\w*(?:Error|Exception|Interrupt|Exit)\b.*)$", re.M)


def reason_of(text: str) -> str:
    """What a failure report says went wrong, in one line and without this machine's paths: the
    last exception line of a traceback in it, or else its first line."""
    found = _EXCEPTION.findall(text)
    line = found[-1] if found else next((part for part in text.splitlines() if part.strip()), "")
    return machine_paths.normalise(line.strip(), Path.cwd())[:300]


def outcomes(junit: Path) -> dict[str, tuple[str, str | None]]:
    """``area/x.py [variant] -> (outcome, reason)`` of every snippet item of a JUnit report."""
    found = {}
    for case in ElementTree.parse(junit).iter("testcase"):
        props = {p.get("name"): p.get("value") for p in case.iter("property")}
        if "snippet" not in props:
            continue
        key = gpu_captures.variant_key(props["snippet"], props["variant"])
        for tag, outcome in (("failure", FAILED), ("error", FAILED), ("skipped", SKIPPED)):
            element = case.find(tag)
            if element is not None:  # a skip's message is its reason; a failure's text is the report
                text = element.get("message") if tag == "skipped" else (element.text or element.get("message"))
                found[key] = (outcome, reason_of(text or ""))
                break
        else:
            found[key] = (props.get("outcome", "passed"), None)
    return found


def run_pass(name: str, options: tuple[str, ...], pytest_args: list[str], timeout: float) -> Path | None:
    """One pytest pass, streamed; its JUnit report, or ``None`` if it wrote none."""
    junit = REPORTS / f"junit-{name}.xml"
    junit.unlink(missing_ok=True)
    command = [sys.executable, "-m", "pytest", "snippets", *SELECT, "-rs", "-p", "no:cacheprovider",
               f"--junitxml={junit}", *options, *pytest_args]
    print(f"== gpu-capture {name}: {' '.join(command[1:])}", flush=True)
    started = time.monotonic()
    proc = subprocess.Popen(command, start_new_session=True)
    try:
        code = proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)  # pytest and its workers
        proc.wait()
        print(f"== gpu-capture {name}: stopped at its limit of {timeout:g} s", flush=True)
        return None
    print(f"== gpu-capture {name}: exit {code} after {time.monotonic() - started:.0f} s", flush=True)
    return junit if junit.exists() else None


def capture(reports: dict[str, Path | None], gpu: dict, made: provenance.Provenance) -> gpu_captures.GpuCapture:
    """The capture file's content from the three passes' reports."""
    found = {name: outcomes(path) if path else {} for name, path in reports.items()}
    variants = {}
    for key in sorted(set().union(*found.values())):
        check, record, verify = (found[name].get(key, (NOT_RUN, None)) for name in ("check", "record", "verify"))
        reason = next((why for _, why in (verify, record, check) if why), None)
        variants[key] = gpu_captures.VariantCapture(check=check[0], recorded=record[0] == WRITTEN,
                                                    verify=verify[0], reason=reason)
    return gpu_captures.GpuCapture(made, gpu, variants)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pass-timeout", type=float, default=600.0, help="seconds each pass may take")
    parser.add_argument("--out", type=Path, default=gpu_captures.GPU_DIR, help="where the capture file goes")
    args, pytest_args = parser.parse_known_args(argv)
    with Forkserver(preload=("torch",)) as server:
        caps = server.capabilities
    if machine.gpus(caps.cuda_devices) == 0:
        print("error: this machine has no CUDA GPU that torch sees; run make gpu-capture on a GPU machine",
              file=sys.stderr)
        return 2
    gpu = machine.gpu_provenance(caps.cuda_devices, caps.gpu)
    REPORTS.mkdir(parents=True, exist_ok=True)
    reports = {name: run_pass(name, options, pytest_args, args.pass_timeout) for name, options in PASSES}
    command = "make gpu-capture" + (f" PYTEST_ARGS='{' '.join(pytest_args)}'" if pytest_args else "")
    made = provenance.current(command, caps.torch)
    result = capture(reports, {"model": gpu.model, "count": gpu.count, "driver": gpu.driver, "cuda": gpu.cuda,
                               "nccl": gpu.nccl}, made)
    path = gpu_captures.path_for(args.out, gpu.model)
    path.parent.mkdir(parents=True, exist_ok=True)
    gpu_captures.write_capture(path, result)
    counts: dict[str, int] = {}
    for found in result.variants.values():
        counts[found.verify] = counts.get(found.verify, 0) + 1
    print(f"== gpu-capture: {path}: " + ", ".join(f"{n} {outcome}" for outcome, n in sorted(counts.items())))
    for key, found in result.failed().items():
        print(f"   failed: {key}: {found.reason}")
    return 1 if result.failed() or None in reports.values() else 0


if __name__ == "__main__":
    sys.exit(main())
