"""Where a measurement came from, and the one way measurement files are written.

Every ``docs/measurements/`` file starts with the same provenance: the ``command`` that wrote
it, the ``torch`` and ``python`` that ran, the ``machine`` (:func:`machine`: system, CPU cores,
GPU driver, and the load where it matters) and the ``date``. :func:`write_measurement` writes a
file as every measurement command does (the fields in a fixed order, two-space JSON, UTF-8
text, a final newline), so two runs that measured the same write the same bytes. Standard
library only; the measurement commands (``refsite.testing``) fill it, the doc build reads it.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import os
import platform
import shutil
from pathlib import Path


@dataclasses.dataclass(frozen=True)
class Provenance:
    """What made a measurement."""

    command: str
    torch: str
    python: str
    machine: str
    date: str      # YYYY-MM-DD, UTC

    def fields(self) -> dict[str, str]:
        return dataclasses.asdict(self)


def machine(load_at: str | None = None) -> str:
    """This machine in one line: ``Linux x86_64, 2 CPU cores, no NVIDIA driver``, and with
    ``load_at`` (``"the start"``, ``"the end"``) the 1-minute load average then."""
    gpus = "no NVIDIA driver" if shutil.which("nvidia-smi") is None else "NVIDIA driver present"
    line = f"{platform.system()} {platform.machine()}, {os.cpu_count()} CPU cores, {gpus}"
    return line + (f", load average {os.getloadavg()[0]:.1f} at {load_at}" if load_at else "")


def today() -> str:
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")


def current(command: str, torch: str, *, load_at: str | None = None) -> Provenance:
    """The provenance of a measurement made now, here, by ``command`` with ``torch``."""
    return Provenance(command=command, torch=torch, python=platform.python_version(),
                      machine=machine(load_at), date=today())


def write_measurement(path: Path, provenance: Provenance, body: dict, *, head: dict | None = None) -> None:
    """Write one measurement file: ``head`` (what it is: ``format``, ``scenario``, ``what``),
    the provenance, then ``body``."""
    data = {**(head or {}), **provenance.fields(), **body}
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def read_provenance(data: dict, where: str) -> Provenance:
    """The provenance fields of a measurement file's ``data``; ``ValueError`` names a missing
    or non-text one. (``python`` was not recorded by every older file: ``""`` then.)"""
    fields = {}
    for field in ("command", "torch", "python", "machine", "date"):
        value = data.get(field, "" if field == "python" else None)
        if not isinstance(value, str):
            raise ValueError(f"{where}: the provenance field {field!r} is missing or not text")
        fields[field] = value
    return Provenance(**fields)
