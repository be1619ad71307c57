"""The expected-output files beside each snippet: one per variant, written only by the runner.

``<stem>.<variant id>.out.json`` holds what each rank printed and where it was recorded (torch
version, backend, device, world size, the command, and the hash of the source it ran). Needs
neither torch nor Sphinx.
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import re
import typing
from pathlib import Path

from refsite.snippets.errors import SpecError

if typing.TYPE_CHECKING:
    from refsite.snippets.spec import Spec, Variant

#: Version of the expected-output file layout. 2 added ``gpu`` (a GPU variant's record names the
#: GPUs it ran on); a record of format 1 reads as one without it.
RECORD_FORMAT = 2
READABLE_FORMATS = (1, 2)
#: The command that rewrites expected outputs.
FIX_COMMAND = "make outputs"


@dataclasses.dataclass(frozen=True)
class GpuProvenance:
    """The GPUs a GPU variant was recorded on, as the runner saw them."""

    model: str  # of device 0, as torch names it
    count: int  # CUDA devices visible to the run
    driver: str  # the NVIDIA driver, as nvidia-smi reports it ("" where it could not tell)
    cuda: str  # the CUDA release torch was built with
    nccl: str  # torch's NCCL ("" in a build without it)
    date: str  # the day it was recorded (ISO, UTC): GPU captures are rare, and dated


@dataclasses.dataclass(frozen=True)
class Record:
    """What each rank of one variant printed, and where it was captured."""

    snippet: str
    variant: str
    source_sha256: str
    torch: str
    backend: str | None
    device: str
    world_size: int
    command: str
    ranks: tuple[str, ...]
    gpu: GpuProvenance | None = None  # a GPU variant's GPUs; None on the CPU (and in format 1)

    @classmethod
    def from_run(cls, spec: Spec, variant: Variant, rel: str, torch: str,
                 outputs: tuple[str, ...], gpu: GpuProvenance | None = None) -> Record:
        """The record of ``variant`` of ``spec`` (``rel``: its path under the snippets root);
        a GPU variant's must say its GPUs (``gpu``), a CPU variant's must not."""
        if (gpu is None) != (variant.device == "cpu"):
            raise ValueError(f"{rel} [{variant.id}]: a record names its GPUs exactly when the "
                             f"variant runs on a GPU (device {variant.device}, gpu {gpu})")
        return cls(snippet=rel, variant=variant.id, source_sha256=spec.source_sha256(), torch=torch,
                   backend=variant.backend, device=variant.device, world_size=variant.world_size,
                   command=spec.command(variant), ranks=tuple(normalize_output(o) for o in outputs),
                   gpu=gpu)

    def to_json(self) -> str:
        data = dataclasses.asdict(self)
        if data["gpu"] is None:
            del data["gpu"]
        data["ranks"] = [{"rank": r, "stdout": out.splitlines()} for r, out in enumerate(self.ranks)]
        return json.dumps({"format": RECORD_FORMAT, **data}, indent=2, ensure_ascii=False) + "\n"


def normalize_output(text: str) -> str:
    """Output as it is stored and compared: every line ends with a newline."""
    return "".join(line + "\n" for line in text.splitlines())


#: A C++ source position inside one of torch's messages (``ProcessGroupGloo.cpp:67``, ``pair.cc:456``):
#: it moves between releases of the same behaviour, so outputs are compared without its number.
_CPP_POSITION = re.compile(r"(\.(?:c|cc|cpp|cu|cuh|h|hpp)):\d+\b")


#: A log line gloo writes to stdout on connecting in some releases (2.8-2.10), not the script's:
#: at a line's start (indented or not), or after the start of another of them that a process
#: sharing the stdout was writing (``head``).
_GLOO_CONNECTED = re.compile(r"^(?P<head>[ \t]*(?:\[Gloo\] [^\n]*?)?)\[Gloo\] Rank \d+ is connected to \d+ "
                             r"peer ranks\. Expected number of connected peer ranks is : \d+\n", re.M)


#: The version of :func:`comparable`'s rules; raise it when they change. They only ever loosen (a
#: rule leaves out noise), so an output judged the same stays the same; one judged different is
#: judged again (``make compat`` re-runs a ``differs`` result made under older rules).
#: 3: gloo's line is left out indented too (a script that prints a child's output) and when
#: another process's write split it (two ranks sharing one stdout).
COMPARISON_RULES = 3


def _without_gloo_log(text: str) -> str:
    """``text`` without gloo's connection lines: a line of its own (indented or not), or one
    written into the middle of another of them by a process sharing the stdout
    (``[Gloo] Rank [Gloo] Rank 0 is connected … : 1\n1 is connected … : 1\n``), which joins
    that one's halves again, to be left out in turn. A gloo line inside a line of the script's
    (``exit code 0; [Gloo] …``) stays."""
    removed = 1
    while removed:
        text, removed = _GLOO_CONNECTED.subn(lambda match: match["head"] if match["head"].strip() else "", text)
    return text


def comparable(text: str) -> str:
    """Output as it is compared with a record: normalized, C++ line numbers masked (records keep
    them as printed), gloo's connection log lines left out."""
    return _CPP_POSITION.sub(r"\1:<line>", _without_gloo_log(normalize_output(text)))


def write_record(path: Path, record: Record) -> None:
    path.write_text(record.to_json(), encoding="utf-8")


def read_record(path: Path) -> Record:
    """Load an expected-output file; :class:`~refsite.snippets.errors.SpecError` names the file and the fix."""
    fix = f"regenerate it with '{FIX_COMMAND}'"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SpecError(f"{path}: expected output is missing; {fix}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise SpecError(f"{path}: expected output does not parse ({exc}); {fix}") from None
    try:
        if data.pop("format") not in READABLE_FORMATS:
            raise ValueError("unknown format version")
        if (gpu := data.pop("gpu", None)) is not None:
            data["gpu"] = GpuProvenance(**gpu)
        ranks = data.pop("ranks")
        if [r["rank"] for r in ranks] != list(range(len(ranks))):
            raise ValueError("ranks are not 0..N-1 in order")
        text = tuple(normalize_output("\n".join(r["stdout"])) for r in ranks)
        record = Record(ranks=text, **data)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise SpecError(f"{path}: expected output is malformed ({exc}); {fix}") from None
    if len(record.ranks) != record.world_size:
        raise SpecError(f"{path}: expected output has {len(record.ranks)} ranks for world size "
                        f"{record.world_size}; {fix}")
    return record


def output_diff(record: Record, outputs: tuple[str, ...], name: str) -> list[str]:
    """Per-rank unified diff of ``outputs`` (normalized here) against ``record`` (file ``name``);
    empty when they match but for C++ line numbers (:func:`comparable`)."""
    diffs: list[str] = []
    for rank, (want, got) in enumerate(zip(record.ranks, outputs)):
        got = normalize_output(got)
        if comparable(want) != comparable(got):
            diffs.extend(difflib.unified_diff(want.splitlines(), got.splitlines(),
                                              f"rank {rank} expected ({name})", f"rank {rank} printed now",
                                              lineterm=""))
    if len(record.ranks) != len(outputs):
        diffs.append(f"expected {len(record.ranks)} ranks, ran {len(outputs)}")
    return diffs


def stale_reason(spec: Spec, record: Record) -> str | None:
    """Why ``record`` no longer matches the snippet's source, or ``None`` when it does."""
    if record.source_sha256 != spec.source_sha256():
        return f"{spec.path.name} changed since this output was recorded"
    return None
