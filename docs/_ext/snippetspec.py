"""What a snippet declares and what its runner recorded: the contract between harness and site.

A snippet is a plain script whose module docstring carries ``Key: value`` lines::

    \"\"\"Sum a tensor over all ranks.

    Run: torchrun --nproc-per-node=2 all_reduce.py
    Variants: gloo-cpu, gloo-cuda, nccl-cuda
    \"\"\"

Keys:

``Run`` (required)
    The command a reader types: ``python FILE`` or ``torchrun --nproc-per-node=N FILE``.
``Variants``
    Single-process: ``cpu``/``cuda``. Distributed: ``BACKEND-DEVICE`` such as ``gloo-cpu``.
    The first one is what the ``Run`` command does; the others are selected with the ``BACKEND``
    and ``DEVICE`` environment variables. Default: ``cpu`` or ``gloo-cpu``.
``GPUs``
    GPUs a CUDA variant needs, when not the default (1, or one per rank for ``nccl``).
``Timeout``
    Seconds before the runner stops the snippet (default: the run's own timeout).

Beside each snippet, one expected-output file per variant, ``<stem>.<variant>.out.json``,
written only by the runner. This module reads and writes both; it needs neither torch nor
Sphinx, so the harness and the Sphinx extension share it.
"""

from __future__ import annotations

import ast
import dataclasses
import difflib
import hashlib
import json
import re
import shlex
from pathlib import Path

#: Process-group backends a variant may name.
KNOWN_BACKENDS = ("gloo", "nccl", "mpi", "ucc", "xccl")
#: Devices a variant may name.
KNOWN_DEVICES = ("cpu", "cuda")
#: Version of the expected-output file layout.
RECORD_FORMAT = 1
#: The command that rewrites expected outputs.
FIX_COMMAND = "make outputs"

_KEY_LINE = re.compile(r"^(Run|Variants|GPUs|Timeout):\s*(.*?)\s*$", re.MULTILINE)
_NPROC = re.compile(r"--nproc[-_]per[-_]node[= ](\d+)")


class SpecError(ValueError):
    """A snippet's header, or one of its expected-output files, is missing or malformed."""


@dataclasses.dataclass(frozen=True)
class Variant:
    """One way to run a snippet: a device, and for distributed snippets a backend."""

    device: str
    backend: str | None
    world_size: int
    gpus: int

    @property
    def name(self) -> str:
        """As written in ``Variants:``: ``cpu`` or ``gloo-cpu``."""
        return self.device if self.backend is None else f"{self.backend}-{self.device}"

    @property
    def id(self) -> str:
        """Test id and file tag: ``cpu`` or ``gloo-cpu-2``."""
        return self.name if self.backend is None else f"{self.name}-{self.world_size}"

    @property
    def env(self) -> dict[str, str]:
        """Environment variables that select this variant inside the snippet."""
        env = {"DEVICE": self.device}
        if self.backend is not None:
            env["BACKEND"] = self.backend
        return env


@dataclasses.dataclass(frozen=True)
class Spec:
    """A snippet file and what its docstring declares."""

    path: Path
    run: str
    variants: tuple[Variant, ...]
    timeout: float | None

    @property
    def world_size(self) -> int:
        return self.variants[0].world_size

    @property
    def distributed(self) -> bool:
        return self.variants[0].backend is not None

    def command(self, variant: Variant) -> str:
        """The command a reader runs for ``variant``: the ``Run`` line, with env for non-defaults."""
        if variant == self.variants[0]:
            return self.run
        prefix = " ".join(f"{k}={v}" for k, v in sorted(variant.env.items(), reverse=True))
        return f"{prefix} {self.run}"

    def record_path(self, variant: Variant) -> Path:
        return self.path.with_name(f"{self.path.stem}.{variant.id}.out.json")

    def source_sha256(self) -> str:
        return sha256_of(self.path)


def sha256_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def is_snippet(path: Path) -> bool:
    """Whether ``path`` is a snippet script (a ``.py`` file not starting with ``_``)."""
    return path.suffix == ".py" and not path.name.startswith("_")


def snippet_paths(root: Path) -> list[Path]:
    """Every snippet under ``root``, sorted."""
    return sorted(p for p in Path(root).rglob("*.py") if is_snippet(p))


def read_spec(path: Path) -> Spec:
    """Parse the header of the snippet at ``path``; :class:`SpecError` names what to fix."""
    path = Path(path)
    if not path.is_file():
        raise SpecError(f"{path}: snippet not found")
    try:
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"), str(path))) or ""
    except SyntaxError as exc:
        raise SpecError(f"{path}:{exc.lineno}: not valid Python: {exc.msg}") from exc
    keys: dict[str, str] = {}
    for match in _KEY_LINE.finditer(doc):
        if match.group(1) in keys:
            raise SpecError(f"{path}: '{match.group(1)}:' appears twice in the docstring")
        keys[match.group(1)] = match.group(2)
    if "Run" not in keys:
        raise SpecError(
            f"{path}: the module docstring has no 'Run:' line; add one such as "
            f"'Run: python {path.name}' or 'Run: torchrun --nproc-per-node=2 {path.name}'"
        )
    run = keys["Run"]
    words = shlex.split(run)
    if path.name not in words:
        raise SpecError(f"{path}: the 'Run:' line must name the file itself ({path.name}): {run!r}")
    if words[0] == "torchrun":
        nproc = _NPROC.search(run)
        if nproc is None:
            raise SpecError(f"{path}: a torchrun 'Run:' line needs --nproc-per-node=N: {run!r}")
        world_size, default = int(nproc.group(1)), "gloo-cpu"
    elif words[0] == "python":
        world_size, default = 1, "cpu"
    else:
        raise SpecError(f"{path}: 'Run:' must start with 'python' or 'torchrun': {run!r}")
    gpus = _positive_int(path, "GPUs", keys.get("GPUs"))
    timeout = _positive_int(path, "Timeout", keys.get("Timeout"))
    names = [n.strip() for n in keys.get("Variants", default).split(",") if n.strip()]
    variants = tuple(_variant(path, n, world_size, words[0] == "torchrun", gpus) for n in names)
    if not variants:
        raise SpecError(f"{path}: 'Variants:' lists nothing")
    if len(set(variants)) != len(variants):
        raise SpecError(f"{path}: 'Variants:' lists a variant twice")
    return Spec(path=path, run=run, variants=variants, timeout=timeout)


def _positive_int(path: Path, key: str, text: str | None) -> int | None:
    if text is None:
        return None
    if not text.isdigit() or int(text) < 1:
        raise SpecError(f"{path}: '{key}:' must be a positive whole number, not {text!r}")
    return int(text)


def _variant(path: Path, name: str, world_size: int, distributed: bool, gpus: int | None) -> Variant:
    parts = name.split("-")
    if distributed and len(parts) == 2:
        backend, device = parts
        if backend not in KNOWN_BACKENDS:
            raise SpecError(
                f"{path}: unknown backend {backend!r} in variant {name!r}; "
                f"known backends: {', '.join(KNOWN_BACKENDS)}"
            )
    elif not distributed and len(parts) == 1:
        backend, device = None, parts[0]
    else:
        form = "BACKEND-DEVICE (e.g. gloo-cpu)" if distributed else "a device (cpu or cuda)"
        raise SpecError(f"{path}: variant {name!r} must be {form}")
    if device not in KNOWN_DEVICES:
        raise SpecError(f"{path}: unknown device {device!r} in variant {name!r}; use cpu or cuda")
    if device == "cpu":
        need = 0
    elif gpus is not None:
        need = gpus
    else:
        need = world_size if backend == "nccl" else 1
    return Variant(device=device, backend=backend, world_size=world_size, gpus=need)


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

    @classmethod
    def from_run(cls, spec: Spec, variant: Variant, rel: str, torch: str,
                 outputs: tuple[str, ...]) -> Record:
        """The record of ``variant`` of ``spec`` (``rel``: its path under the snippets root)."""
        return cls(snippet=rel, variant=variant.id, source_sha256=spec.source_sha256(), torch=torch,
                   backend=variant.backend, device=variant.device, world_size=variant.world_size,
                   command=spec.command(variant), ranks=tuple(normalize_output(o) for o in outputs))

    def to_json(self) -> str:
        data = dataclasses.asdict(self)
        data["ranks"] = [{"rank": r, "stdout": out.splitlines()} for r, out in enumerate(self.ranks)]
        return json.dumps({"format": RECORD_FORMAT, **data}, indent=2, ensure_ascii=False) + "\n"


def normalize_output(text: str) -> str:
    """Output as it is stored and compared: every line ends with a newline."""
    return "".join(line + "\n" for line in text.splitlines())


def write_record(path: Path, record: Record) -> None:
    path.write_text(record.to_json(), encoding="utf-8")


def read_record(path: Path) -> Record:
    """Load an expected-output file; :class:`SpecError` names the file and the fix."""
    fix = f"regenerate it with '{FIX_COMMAND}'"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SpecError(f"{path}: expected output is missing; {fix}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise SpecError(f"{path}: expected output does not parse ({exc}); {fix}") from None
    try:
        if data.pop("format") != RECORD_FORMAT:
            raise ValueError("unknown format version")
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
    empty when they match."""
    diffs: list[str] = []
    for rank, (want, got) in enumerate(zip(record.ranks, outputs)):
        got = normalize_output(got)
        if want != got:
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
