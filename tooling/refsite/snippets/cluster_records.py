"""The records of multi-node scenarios run on a virtual cluster: ``docs/measurements/cluster/<name>.json``.

Written only by ``python -m refsite.testing.measure_cluster`` (``make cluster-records``); the
``{cluster-record}`` directive shows one on a page, the ``{measured}`` role quotes its figures.
A record holds its provenance (``command``, ``torch``, ``machine``, ``date``), ``scripts`` (the
sha256 of every script the scenario ran, by path under ``snippets/``) and ``results``: figures
as strings (``bring_up``, ``elapsed``, ...) and ``runs``, each a list of ``hosts``::

    {"host": "node0", "command": "torchrun ...", "exit_code": 0,
     "agent": ["lines torchrun printed itself"], "ranks": {"0": ["lines rank 0 printed"]}}

Outputs are normalized (no pids, ephemeral ports, timestamps or temporary paths), so two runs of
a scenario that behaves the same write the same lines. Standard library only: the doc build,
the measurement and the tests share it.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

#: Where the records are, relative to the checkout's root.
RECORDS_DIR = Path("docs/measurements/cluster")
#: The command that rewrites every record (or one: ``make cluster-records SCENARIOS=static``).
FIX_COMMAND = "make cluster-records"
#: Keys every record holds.
KEYS = ("scenario", "command", "torch", "machine", "date", "scripts", "results")


class RecordError(ValueError):
    """A cluster record that is missing, malformed or stale (the message names the fix)."""


def sha256(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def record_path(root: Path, scenario: str) -> Path:
    """The record of ``scenario`` in the checkout at ``root``."""
    return Path(root) / RECORDS_DIR / f"{scenario}.json"


def read(path: Path) -> dict:
    """Load one record; :class:`RecordError` says what is wrong and how to fix it."""
    fix = f"run '{FIX_COMMAND} SCENARIOS={Path(path).stem}'"
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RecordError(f"{path}: no such cluster record; {fix}") from None
    except (OSError, json.JSONDecodeError) as exc:
        raise RecordError(f"{path}: not valid JSON ({exc}); {fix}") from None
    missing = [key for key in KEYS if key not in data]
    if missing or not isinstance(data["results"].get("runs"), list):
        raise RecordError(f"{path}: malformed cluster record (missing {missing or ['results.runs']}); {fix}")
    return data


def stale_reason(data: dict, snippets_root: Path) -> str | None:
    """Why a record no longer matches the scripts it ran (``snippets_root``: the ``snippets/``
    folder), or ``None`` when every script is as it was."""
    for rel, recorded in sorted(data["scripts"].items()):
        path = Path(snippets_root) / rel
        if not path.is_file():
            return f"it ran snippets/{rel}, which no longer exists"
        if sha256(path) != recorded:
            return f"snippets/{rel} changed since it was recorded"
    return None


def check(path: Path, snippets_root: Path) -> dict:
    """:func:`read`, then :class:`RecordError` when the record is stale, naming the fix."""
    data = read(path)
    if reason := stale_reason(data, snippets_root):
        raise RecordError(f"{path} is stale: {reason}; run "
                          f"'{FIX_COMMAND} SCENARIOS={data['scenario']}'")
    return data
