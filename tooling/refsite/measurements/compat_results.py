"""Which torch releases each snippet variant runs on: the measurement files ``make compat`` writes.

One JSON file per release, ``docs/measurements/compat/torch-<version>.json``, with its provenance
(torch build, Python, date, machine, command, install and run times, and ``install.requirements``:
the pins installed besides torch, absent in files written before it was recorded) and, per CPU variant, the
outcome of one run through the project's runner on that release:

- ``same``: every rank printed what the record holds (compared as the test suite compares:
  :func:`refsite.snippets.records.comparable`);
- ``differs``: it ran clean but printed something else (``diff``: the per-rank unified diff);
- ``fails``: it exited non-zero, timed out, or wrote to stderr (``error_type`` and ``error``:
  the exception's type and the first line of its message, or what happened instead; a run
  stopped at a time limit also has ``stopped_after_s``, that limit, which is what the runner
  reads, never the message).

A variant whose result changed kind from one run to the next on a release (torch 2.4-2.7's
teardown hangs now and then) is run :data:`REPEATS` times alone and stored with ``repeated``:
``{"runs": 12, "counts": {"same": 11, "hangs": 1}}``, each run counted by its kind
(:func:`kind_of`: a failure stopped at its time limit *hangs*); its ``result`` and details are
those of a run of its most frequent kind. Optional and additive: a result without it is one run.

A result holds for a variant only while the snippet's code and its record are the ones it was
measured against (``code_sha256``: the code without comments and docstrings, so a reworded comment
keeps its results; ``record_sha256``); after either changes the variant has no result on that
release until ``make compat`` runs again. Standard library only: read through
:mod:`refsite.measurements.compat_matrix` (the one read model), written by :func:`write_run` (``python -m
refsite.commands.compat.run`` inside each release's own environment).
"""

from __future__ import annotations

import ast
import dataclasses
import hashlib
import json
import re
from pathlib import Path

from refsite import snippets
from refsite.project import release_of
from refsite.snippets.records import Record

#: Version of the measurement file layout.
COMPAT_FORMAT = 1
SAME, DIFFERS, FAILS = "same", "differs", "fails"
#: The kind of a failed run that was stopped at its time limit (``stopped_after_s``).
HANGS = "hangs"
#: What a repeated result counts, in the order the pages name them.
KINDS = (SAME, DIFFERS, FAILS, HANGS)
#: How many times ``make compat`` runs a variant whose result changed kind between two runs.
REPEATS = 12
#: A release measured, but not on this code and record: it ends a run of releases, says nothing.
UNMEASURED = "unmeasured"
#: The folder of the measurement files, relative to the project root.
COMPAT_DIR = Path("docs", "measurements", "compat")


def variant_key(snippet: str, variant: str) -> str:
    """How a variant is named in the files: ``distributed/all_reduce.py [gloo-cpu-2]``."""
    return f"{snippet} [{variant}]"


def code_digest(path: Path) -> str:
    """The snippet's code as Python runs it: its syntax tree without comments and docstrings."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and body
                and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)):
            node.body = body[1:] or [ast.Pass()]
    return hashlib.sha256(ast.dump(tree).encode()).hexdigest()


def kind_of(found: dict) -> str:
    """What one stored run was: *same*, *differs*, *fails*, or *hangs* (a failure stopped at its
    time limit, as ``stopped_after_s`` says)."""
    return HANGS if found["result"] == FAILS and "stopped_after_s" in found else found["result"]


def repeated(runs: list[dict]) -> dict:
    """One stored result for several runs of a variant: a run of the most frequent kind (the
    earliest such run among equals), with ``repeated`` counting every run's kind."""
    counts = {kind: sum(kind_of(run) == kind for run in runs) for kind in KINDS}
    counts = {kind: count for kind, count in counts.items() if count}
    top = max(counts.values())
    chosen = next(run for run in runs if counts[kind_of(run)] == top)
    if len(counts) == 1:
        return {k: v for k, v in chosen.items() if k != "repeated"}
    return {**chosen, "repeated": {"runs": len(runs), "counts": counts}}


def is_current(found: dict, code_sha256: str, record_digest_now: str) -> bool:
    """Whether a stored result holds for this code and record, under today's comparison rules
    (a ``differs`` judged under older, stricter rules may be ``same`` today)."""
    return (found.get("code_sha256") == code_sha256 and found.get("record_sha256") == record_digest_now
            and not (found["result"] == DIFFERS
                     and found.get("compare_rules") != snippets.COMPARISON_RULES))


def record_digest(record: Record) -> str:
    """What a result was compared against: the record's ranks as they are compared."""
    text = "\x00".join(snippets.comparable(rank) for rank in record.ranks)
    return hashlib.sha256(text.encode()).hexdigest()


def release_key(version: str) -> tuple[int, ...]:
    """``2.10.0`` sorts after ``2.9.1``; a local tag (``+cpu``) is ignored."""
    return tuple(int(part) for part in re.findall(r"\d+", release_of(version))[:3])


def short_release(version: str) -> str:
    """``2.4.1`` -> ``2.4``: the pages name minor releases (one tested patch of each)."""
    return ".".join(release_of(version).split(".")[:2])


@dataclasses.dataclass(frozen=True)
class Outcome:
    """One variant on one release."""

    release: str
    result: str  # SAME, DIFFERS or FAILS
    diff: tuple[str, ...] = ()
    error_type: str = ""
    error: str = ""
    #: ``(kind, runs)`` of a repeated result, most frequent first; empty for one run.
    counts: tuple[tuple[str, int], ...] = ()

    @property
    def runs(self) -> int:
        """How many runs the result stands for (1 unless it was repeated)."""
        return sum(count for _, count in self.counts) or 1


@dataclasses.dataclass(frozen=True)
class ReleaseRun:
    """One measurement file: a release, its provenance, and each variant's result."""

    path: Path
    torch: str
    installed: bool
    install_error: str
    date: str
    provenance: dict
    results: dict  # variant key -> the stored result (a dict)

    def outcome(self, key: str, code_sha256: str, record_sha256: str) -> Outcome | None:
        """The variant's result on this release, or ``None`` when it was not measured against
        this code and this record (:func:`code_digest`, :func:`record_digest`)."""
        found = self.results.get(key)
        if found is None or not is_current(found, code_sha256, record_sha256):
            return None
        counts = found.get("repeated", {}).get("counts", {})
        return Outcome(self.torch, found["result"], tuple(found.get("diff", ())),
                       found.get("error_type", ""), found.get("error", ""),
                       tuple(sorted(counts.items(), key=lambda item: (-item[1], KINDS.index(item[0])))))


def measurement(release: str, *, torch_build: str | None, python: str, date: str, machine: str,
                command: str, install: dict, variants: dict, timing: dict | None = None) -> dict:
    """One measurement file's content, in the layout :func:`read_run` reads (``timing``: the
    run's ``run_seconds``, ``kept_from_earlier_runs`` and ``counts``; none for a failed install)."""
    return {"format": COMPAT_FORMAT, "torch": release, "torch_build": torch_build, "python": python,
            "date": date, "machine": machine, "command": command, "install": install,
            **(timing or {}), "variants": variants}


def _validate(data: dict) -> None:
    if data["format"] != COMPAT_FORMAT:
        raise ValueError(f"unknown format {data['format']} (this tooling reads format {COMPAT_FORMAT})")
    for key, found in data["variants"].items():
        if found["result"] not in (SAME, DIFFERS, FAILS):
            raise ValueError(f"{key}: unknown result {found['result']!r}")
        if not isinstance(found.get("stopped_after_s", 0), (int, float)):
            raise ValueError(f"{key}: stopped_after_s must be the limit in seconds that stopped the run")
        if "repeated" in found:
            _validate_repeated(key, found)
    for field in ("torch", "date", "machine", "command"):
        if not isinstance(data[field], str):
            raise ValueError(f"{field} must be a string")
    if not isinstance(data["install"].get("ok"), bool):
        raise ValueError("install.ok must be true or false")
    if not all(isinstance(pin, str) and "==" in pin for pin in data["install"].get("requirements", [])):
        raise ValueError("install.requirements must list name==version pins")


def _validate_repeated(key: str, found: dict) -> None:
    runs, counts = found["repeated"].get("runs"), found["repeated"].get("counts", {})
    if (not isinstance(runs, int) or set(counts) - set(KINDS) or len(counts) < 2
            or not all(isinstance(n, int) and n > 0 for n in counts.values()) or sum(counts.values()) != runs):
        raise ValueError(f"{key}: repeated must be {{'runs': N, 'counts': {{kind: n, ...}}}} with two kinds or more "
                         f"of {', '.join(KINDS)}, counts adding up to N")
    if counts.get(kind_of(found)) != max(counts.values()):
        raise ValueError(f"{key}: a repeated result is stored as a run of its most frequent kind")


def write_run(path: Path, data: dict) -> bool:
    """Write a measurement file (checked as :func:`read_run` checks it), only if its text
    changes; whether it did. The one writer of the format."""
    _validate(data)
    text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    if path.exists() and path.read_text(encoding="utf-8") == text:
        return False
    path.write_text(text, encoding="utf-8")
    return True


def read_run(path: Path) -> ReleaseRun:
    """Load one measurement file; a malformed one raises :class:`~refsite.snippets.errors.SpecError`
    naming the file and the fix."""
    fix = f"run 'make compat RELEASES=...' again for that release, or delete {path.name}"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        _validate(data)
        results = data["variants"]
        return ReleaseRun(path, data["torch"], data["install"]["ok"], data["install"].get("error", ""),
                          data["date"], {**{k: data[k] for k in ("torch_build", "python", "machine", "command")},
                                         "requirements": data["install"].get("requirements", [])},
                          results)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise snippets.SpecError(f"{path}: compat results do not read ({exc}); {fix}") from None


def previous_results(path: Path) -> dict:
    """The per-variant results of an existing measurement file (none if it is missing, or
    records an install that failed)."""
    if not path.exists():
        return {}
    run = read_run(path)
    return run.results if run.installed else {}


def read_runs(folder: Path) -> list[ReleaseRun]:
    """Every measurement file in ``folder``, oldest release first."""
    runs = [read_run(path) for path in folder.glob("torch-*.json")]
    return sorted(runs, key=lambda run: release_key(run.torch))


def groups(found: list[Outcome], *, same_message: bool = True) -> list[tuple[str, list[Outcome]]]:
    """Consecutive releases with the same result (and, for failures, the same error: its type
    and, with ``same_message``, its message), in order; an :data:`UNMEASURED` release is a group
    of its own, so no span reaches over it."""
    grouped: list[tuple[str, list[Outcome]]] = []
    for outcome in found:
        error = f"{outcome.error_type}:{outcome.error}" if same_message else outcome.error_type
        label = outcome.result if outcome.result != FAILS else f"{FAILS}:{error}"
        if outcome.counts:  # a result that varies from run to run spans only its own release
            label = f"{label} {outcome.release} {outcome.counts}"
        if grouped and grouped[-1][0] == label:
            grouped[-1][1].append(outcome)
        else:
            grouped.append((label, [outcome]))
    return grouped


def span(group: list[Outcome]) -> str:
    """``2.6–2.15`` for a run of releases, ``2.5`` for one."""
    first, last = short_release(group[0].release), short_release(group[-1].release)
    return first if first == last else f"{first}–{last}"
