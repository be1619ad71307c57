"""The messages between :class:`ranktest.Forkserver` (the client) and its server process
(``ranktest._server``): one JSON object per line, each named by its ``"op"``.

The server says :class:`Ready` once (what its torch can do), then answers each
:class:`RunRequest` with one :class:`Done`; a server that cannot serve runs on this machine
says :class:`Refused` instead of :class:`Ready`, with the reason, and exits. :func:`encode` and :func:`decode` are the only
places a message becomes bytes or comes back; a line that is not a known message raises
:class:`ProtocolError` naming what it got.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Union


class ProtocolError(RuntimeError):
    """A line on the client-server pipe that is not a known message."""


@dataclasses.dataclass(frozen=True)
class Ready:
    """The server's first line: its torch, CUDA devices, backends and, with devices, its GPU
    (``model``, ``driver``, ``cuda``, ``nccl``)."""

    torch: str
    cuda_devices: int
    backends: dict[str, bool]
    gpu: dict[str, str] | None = None


@dataclasses.dataclass(frozen=True)
class Refused:
    """Instead of :class:`Ready`: why this server cannot serve runs here (starting it again
    would not help), after which it exits."""

    reason: str


@dataclasses.dataclass(frozen=True)
class RunRequest:
    """Run ``argv`` (a script and its arguments) as ``world_size`` ranks."""

    argv: list[str]
    world_size: int
    env: dict[str, str]
    timeout: float
    outdir: str            # where each rank's stdout, stderr and failure time are written
    cwd: str
    strict_warnings: bool  # DeprecationWarning and FutureWarning are errors
    distributed: bool      # a store and torchrun's variables, even for one rank
    run_id: str
    check_teardown: bool   # a rank that leaves its process group alive fails


@dataclasses.dataclass(frozen=True)
class RankEnd:
    """How one rank ended: its exit status, and whether the watch stopped it."""

    rank: int
    returncode: int
    stopped: bool


@dataclasses.dataclass(frozen=True)
class Done:
    """The reply to a run: every rank's end, the rank that failed first, whether the run
    timed out, and its duration in seconds."""

    ranks: list[RankEnd]
    first_failure: int | None
    timed_out: bool
    elapsed: float


Message = Union[Ready, Refused, RunRequest, Done]
#: The ``"op"`` of each message.
OPS: dict[str, type] = {"ready": Ready, "refused": Refused, "run": RunRequest, "done": Done}
_NAMES = {cls: op for op, cls in OPS.items()}


def encode(message: Message) -> bytes:
    """One line of JSON: ``{"op": ..., fields...}``."""
    return (json.dumps({"op": _NAMES[type(message)], **dataclasses.asdict(message)}) + "\n").encode()


def decode(line: bytes | str) -> Message:
    """The message of one line; :class:`ProtocolError` for anything else."""
    try:
        data = json.loads(line)
        cls = OPS[data.pop("op")]
        if cls is Done:
            data["ranks"] = [RankEnd(**r) for r in data["ranks"]]
        return cls(**data)
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        shown = line[:200] if line else "(end of stream)"
        raise ProtocolError(f"not a ranktest message ({type(exc).__name__}: {exc}): {shown!r}") from None
