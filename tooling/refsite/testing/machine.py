"""What this machine lets the checks do, beyond what ``ranktest`` probes (backends, GPUs):
tracing another process (``Needs: ptrace``), and whether a check that cannot run may skip.

A test pretends a machine through the ``REFSITE_ASSUME`` environment variable instead of
patching the collector: ``REFSITE_ASSUME="gpus=8,ptrace=no"`` makes the checks see eight GPUs
and no ptrace rights (also in the pytest processes a test starts).

With ``CI`` set, a check that cannot run here for want of something the project's set-up
installs or grants (a browser, ptrace rights) fails instead of skipping, naming what to do.
"""

from __future__ import annotations

import datetime
import os
from pathlib import Path

import pytest

from refsite import snippets

#: The variable a test sets to pretend capabilities: ``name=value`` pairs, comma-separated.
ASSUME_ENV = "REFSITE_ASSUME"
#: What a snippet's ``Needs:`` line may name, and how a machine gets it.
HOW_TO_GET = {
    "ptrace": "run as root, or grant CAP_SYS_PTRACE, or set kernel.yama.ptrace_scope=0 "
              "(sysctl -w kernel.yama.ptrace_scope=0)",
}


def assumed() -> dict[str, str]:
    """The capabilities ``REFSITE_ASSUME`` pretends, by name."""
    pairs = [p.split("=", 1) for p in os.environ.get(ASSUME_ENV, "").split(",") if "=" in p]
    return {name.strip(): value.strip() for name, value in pairs}


def gpus(probed: int) -> int:
    """CUDA devices the checks may use: what ``ranktest`` probed, unless a test pretends."""
    value = assumed().get("gpus")
    return int(value) if value is not None else probed


def gpu_provenance(probed_devices: int, probed_gpu: dict[str, str] | None) -> snippets.GpuProvenance:
    """What a GPU variant's record names as its GPUs: what ``ranktest`` probed
    (``Capabilities.cuda_devices`` and ``.gpu``), or, where a test pretends GPUs that are not
    there (``REFSITE_ASSUME="gpus=N"``), a GPU named as pretended."""
    today = datetime.datetime.now(datetime.timezone.utc).date().isoformat()
    if probed_gpu is not None:
        return snippets.GpuProvenance(model=probed_gpu["model"], count=probed_devices,
                                      driver=probed_gpu["driver"], cuda=probed_gpu["cuda"],
                                      nccl=probed_gpu["nccl"], date=today)
    if "gpus" in assumed():
        return snippets.GpuProvenance(model=f"none ({ASSUME_ENV} pretends {gpus(0)})", count=gpus(0),
                                      driver="", cuda="", nccl="", date=today)
    raise RuntimeError("a GPU variant ran, but the harness probed no GPU to name in its record")


def can_ptrace() -> bool:
    """Whether a process may trace another one that is not its child (py-spy on a sibling rank)."""
    value = assumed().get("ptrace")
    if value is not None:
        return value == "yes"
    if os.geteuid() == 0:
        return True
    scope = Path("/proc/sys/kernel/yama/ptrace_scope")
    return not scope.exists() or scope.read_text().strip() == "0"


def missing(needs: tuple[str, ...]) -> str | None:
    """Why a snippet with ``Needs: …`` cannot run here, or ``None`` when it can."""
    for need in needs:
        if need == "ptrace" and not can_ptrace():
            return f"needs ptrace rights to trace another process; this machine refuses them ({HOW_TO_GET[need]})"
    return None


def require(needs: tuple[str, ...]) -> None:
    """Skip the current check when this machine lacks one of ``needs`` (a snippet's ``Needs:``);
    with ``CI`` set, fail instead (:func:`cannot_run`)."""
    if reason := missing(needs):
        cannot_run(reason)


def cannot_run(reason: str, *, module: bool = False) -> None:
    """Skip the current check (or, with ``module``, the importing test module) for ``reason``;
    with ``CI`` set, fail instead: a skipped check would let the suite pass without it."""
    if os.environ.get("CI"):
        pytest.fail(f"{reason}; CI is set, so this check must run here, not skip", pytrace=False)
    pytest.skip(reason, allow_module_level=module)
