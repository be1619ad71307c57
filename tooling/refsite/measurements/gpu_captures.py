"""The GPU capture files (``docs/measurements/gpu/<gpu>.json``): what one run of
``make gpu-capture`` on a GPU machine found for every GPU variant, so that a variant without a
record says why (it failed there, and how; or the machine had too few GPUs) instead of a bare
"not yet". Writer beside reader; standard library only. ``refsite.commands.gpu_capture`` writes
them, the GPU runners page reads them.

Each file: the provenance (:mod:`.provenance`), the ``gpu`` (model, count, driver, CUDA, NCCL)
and ``variants``, keyed ``AREA/FILE.py [VARIANT]``, each with the outcome of the three passes
(``check``: before recording; ``recorded``: whether ``make outputs`` wrote its record; ``verify``:
against the new records) and, for a variant that failed or was skipped, the ``reason``, as the
runner reported it (its first line). A machine's next capture replaces its file.
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

from refsite.measurements import provenance
from refsite.snippets.errors import SpecError

#: Where the files are, relative to the checkout.
GPU_DIR = Path("docs", "measurements", "gpu")
CAPTURE_FORMAT = 1


@dataclasses.dataclass(frozen=True)
class VariantCapture:
    """What one GPU variant did in the three passes of a capture."""

    check: str      # the runner's outcome before recording (collector.OUTCOMES)
    recorded: bool  # make outputs wrote its record
    verify: str     # the outcome against the records just written
    reason: str | None = None  # the first line of a failure or skip, as reported


@dataclasses.dataclass(frozen=True)
class GpuCapture:
    """One capture on one machine."""

    provenance: provenance.Provenance
    gpu: dict[str, str | int]  # model, count, driver, cuda, nccl
    variants: dict[str, VariantCapture]

    def failed(self) -> dict[str, VariantCapture]:
        """The variants that failed after recording (their record, if any, is not trusted)."""
        return {key: found for key, found in self.variants.items() if found.verify == "failed"}


def variant_key(snippet: str, variant: str) -> str:
    """``area/x.py [nccl-cuda-1]``: how a capture file names a variant."""
    return f"{snippet} [{variant}]"


def path_for(folder: Path, model: str) -> Path:
    """The file of a GPU model: ``NVIDIA H200`` -> ``nvidia-h200.json``."""
    return Path(folder) / (re.sub(r"[^a-z0-9]+", "-", model.lower()).strip("-") + ".json")


def write_capture(path: Path, capture: GpuCapture) -> None:
    body = {"gpu": capture.gpu,
            "variants": {key: dataclasses.asdict(found) for key, found in sorted(capture.variants.items())}}
    provenance.write_measurement(path, capture.provenance, body, head={"format": CAPTURE_FORMAT})


def read_capture(path: Path) -> GpuCapture:
    """One capture file; :class:`~refsite.snippets.errors.SpecError` names the file and what is wrong."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        if data.get("format") != CAPTURE_FORMAT:
            raise ValueError(f"format {data.get('format')!r}, this tooling reads {CAPTURE_FORMAT}")
        variants = {key: VariantCapture(**found) for key, found in data["variants"].items()}
        return GpuCapture(provenance.read_provenance(data, str(path)), dict(data["gpu"]), variants)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise SpecError(f"{path}: not a GPU capture file ({exc}); fix: write it again with "
                        f"'make gpu-capture' on the GPU machine") from None


def captures_in(folder: Path) -> list[GpuCapture]:
    """Every capture file in ``folder``, newest first."""
    found = [read_capture(path) for path in sorted(Path(folder).glob("*.json"))]
    return sorted(found, key=lambda capture: capture.provenance.date, reverse=True)
