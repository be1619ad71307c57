"""The measurement file of what a torch pin move changed in the records:
``docs/measurements/changes/torch-<old>-to-<new>.json``.

Written only by ``python -m refsite.commands.compat.changes_between OLD_COMMIT`` through :func:`write`;
the change page's ``{record-changes}`` directive reads it through :func:`read`. It holds the two
torch releases (and the commit whose records the old one made), the date and command, how many
records were compared, and per changed variant each rank's unified diff (old record -> new)
and whether the example itself changed. Standard library only.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from refsite.project import release_of

#: Where the files are, relative to the checkout's root.
CHANGES_DIR = Path("docs/measurements/changes")
#: The format :func:`write` writes and :func:`read` reads.
CHANGES_FORMAT = 1
FIX_COMMAND = "python -m refsite.commands.compat.changes_between OLD_COMMIT"


class ChangeFileError(ValueError):
    """A change file that is missing, malformed or of another format (the message names the fix)."""


@dataclasses.dataclass(frozen=True)
class RecordChange:
    """One variant whose record changed."""

    snippet: str
    variant: str
    example_changed: bool
    diff: list[str]


@dataclasses.dataclass(frozen=True)
class ChangeFile:
    old_torch: str
    commit: str          # the last commit whose records the old torch made
    new_torch: str
    date: str
    command: str
    compared: int
    changes: list[RecordChange]

    @property
    def name(self) -> str:
        """``torch-2.13.0-to-2.15.0.json``."""
        return f"torch-{release_of(self.old_torch)}-to-{release_of(self.new_torch)}.json"


def write(folder: Path, changes: ChangeFile) -> Path:
    """Write ``changes`` into ``folder`` under its :attr:`~ChangeFile.name`; returns the path."""
    data = {"format": CHANGES_FORMAT, "from": {"torch": changes.old_torch, "commit": changes.commit},
            "to": {"torch": changes.new_torch}, "date": changes.date, "command": changes.command,
            "compared": changes.compared, "changes": [dataclasses.asdict(c) for c in changes.changes]}
    path = Path(folder) / changes.name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def read(path: Path) -> ChangeFile:
    """Load one change file; :class:`ChangeFileError` says what is wrong and how to fix it."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        if data.get("format") != CHANGES_FORMAT:
            raise ValueError(f"format {data.get('format')!r}, this tooling reads {CHANGES_FORMAT}")
        return ChangeFile(data["from"]["torch"], data["from"]["commit"], data["to"]["torch"], data["date"],
                          data["command"], int(data["compared"]),
                          [RecordChange(c["snippet"], c["variant"], bool(c["example_changed"]), list(c["diff"]))
                           for c in data["changes"]])
    except FileNotFoundError:
        raise ChangeFileError(f"{path}: no such change file; run {FIX_COMMAND}") from None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ChangeFileError(f"{path} does not read ({type(exc).__name__}: {exc}); run {FIX_COMMAND}") from None
