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
    Single-process: ``cpu``/``cuda``. Distributed: ``BACKEND-DEVICE`` such as ``gloo-cpu``, or
    ``BACKEND-DEVICE-N`` to run that variant on N ranks instead of the ``Run`` line's (for
    example ``nccl-cuda-1``, which a machine with one GPU can run). The first one is what the
    ``Run`` command does; the others are selected with the ``BACKEND`` and ``DEVICE``
    environment variables. Default: ``cpu`` or ``gloo-cpu``.
``GPUs``
    GPUs a CUDA variant needs, when not the default (1, or one per rank for ``nccl``).
``Timeout``
    Seconds before a runner stops the snippet: every run of it (through the harness, copied
    alone, in the soak and in ``make compat``). It comes first; then ``--snippet-timeout``;
    then the runner's default (``refsite.testing.snippet_runs.timeout_of``).
``Needs``
    ``ptrace``: the snippet traces another process (py-spy); a machine that refuses it skips the
    snippet with that reason.
``Output``
    ``same on all devices``: every variant prints what the CPU variant of the same world size
    prints, so a CUDA variant with no record of its own is checked against that record, and the
    two records are held to each other once both exist.

Beside each snippet, one expected-output file per variant, ``<stem>.<variant>.out.json``,
written only by the runner (see :mod:`refsite.snippets.records`). This module reads the header; it needs
neither torch nor Sphinx, so the snippet collector and the Sphinx extension share it.
"""

from __future__ import annotations

import ast
import dataclasses
import hashlib
import re
import shlex
from pathlib import Path

from refsite.snippets.errors import SpecError

#: Process-group backends a variant may name.
KNOWN_BACKENDS = ("gloo", "nccl", "mpi", "ucc", "xccl")
#: Devices a variant may name.
KNOWN_DEVICES = ("cpu", "cuda")
#: What an ``Output:`` line may say.
SAME_ON_ALL_DEVICES = "same on all devices"

#: The keys a snippet's docstring may set, one ``Key: value`` line each.
HEADER_KEYS = ("Run", "Variants", "GPUs", "Timeout", "Output", "Needs")
#: What a ``Needs:`` line may name: rights a check needs beyond GPUs and backends.
KNOWN_NEEDS = ("ptrace",)
#: A header line, as written: the key and its value.
HEADER_LINE = re.compile(rf"^({'|'.join(HEADER_KEYS)}):\s*(.*?)\s*$", re.MULTILINE)
#: Modules whose import means a ``python`` snippet starts processes of its own.
PROCESS_MODULES = ("subprocess", "multiprocessing", "torch.multiprocessing", "concurrent.futures",
                   "torch.distributed.run", "torch.distributed.launcher")  # torchrun's main, elastic_launch
#: Calls that start processes or a process group (``dist.init_process_group``, ``mp.spawn``...).
PROCESS_CALLS = ("init_process_group", "spawn", "start_processes")
_NPROC = re.compile(r"--nproc[-_]per[-_]node[= ](\d+)")


@dataclasses.dataclass(frozen=True)
class Variant:
    """One way to run a snippet: a device, and for distributed snippets a backend."""

    device: str
    backend: str | None
    world_size: int
    gpus: int
    sized: bool = False  # declared with its own world size (``nccl-cuda-1``)

    @property
    def name(self) -> str:
        """As written in ``Variants:``: ``cpu``, ``gloo-cpu`` or ``nccl-cuda-1``."""
        if self.backend is None:
            return self.device
        return f"{self.backend}-{self.device}" + (f"-{self.world_size}" if self.sized else "")

    @property
    def id(self) -> str:
        """Test id and file tag: ``cpu`` or ``gloo-cpu-2``."""
        if self.backend is None or self.sized:
            return self.name
        return f"{self.name}-{self.world_size}"

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
    same_on_all_devices: bool = False
    #: Its code starts processes or a process group itself (not through its ``Run:`` launcher).
    starts_processes: bool = False
    #: What its ``Needs:`` line names (:data:`KNOWN_NEEDS`).
    needs: tuple[str, ...] = ()

    @property
    def torchrun(self) -> bool:
        """Launched by ``torchrun`` (its ``Run:`` line says so)."""
        return shlex.split(self.run)[0] == "torchrun"  # as read_spec reads the line

    @property
    def multi_process(self) -> bool:
        """A ``torchrun`` snippet, or a ``python`` one that starts processes itself: it takes
        seconds, not a tenth of one (soaked; its passes are remembered by ``--reuse-passed``)."""
        return self.torchrun or self.starts_processes

    @property
    def world_size(self) -> int:
        return self.variants[0].world_size

    @property
    def distributed(self) -> bool:
        return self.variants[0].backend is not None

    def command(self, variant: Variant) -> str:
        """The command a reader runs for ``variant``: the ``Run`` line, with env for non-defaults
        (and its own ``--nproc-per-node`` for a variant declared with a world size)."""
        if variant == self.variants[0]:
            return self.run
        run = _NPROC.sub(f"--nproc-per-node={variant.world_size}", self.run) if variant.sized else self.run
        prefix = " ".join(f"{k}={v}" for k, v in sorted(variant.env.items(), reverse=True))
        return f"{prefix} {run}"

    def reference(self, variant: Variant) -> Variant | None:
        """The CPU variant whose record ``variant`` must print too (``Output: same on all
        devices``): same world size, same backend preferred; ``None`` if there is none."""
        if not self.same_on_all_devices or variant.device == "cpu":
            return None
        cpu = [v for v in self.variants if v.device == "cpu" and v.world_size == variant.world_size]
        cpu.sort(key=lambda v: v.backend != variant.backend)
        return cpu[0] if cpu else None

    def record_path(self, variant: Variant) -> Path:
        return self.path.with_name(f"{self.path.stem}.{variant.id}.out.json")

    def source_sha256(self) -> str:
        return sha256_of(self.path)


def sha256_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def is_snippet(path: Path) -> bool:
    """Whether ``path`` is a snippet script: a ``.py`` file not starting with ``_``, nor with
    ``test_`` (a reader's test of a snippet, such as ``distributed/test_global_mean.py``, which
    pytest collects as the test it is)."""
    return path.suffix == ".py" and not path.name.startswith(("_", "test_"))


def snippet_paths(root: Path) -> list[Path]:
    """Every snippet under ``root``, sorted."""
    return sorted(p for p in Path(root).rglob("*.py") if is_snippet(p))


def read_spec(path: Path) -> Spec:
    """Parse the header of the snippet at ``path``; :class:`~refsite.snippets.errors.SpecError` names what to fix."""
    path = Path(path)
    if not path.is_file():
        raise SpecError(f"{path}: snippet not found")
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        doc = ast.get_docstring(tree) or ""
    except SyntaxError as exc:
        raise SpecError(f"{path}:{exc.lineno}: not valid Python: {exc.msg}") from exc
    keys: dict[str, str] = {}
    for match in HEADER_LINE.finditer(doc):
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
    output = keys.get("Output")
    if output not in (None, SAME_ON_ALL_DEVICES):
        raise SpecError(f"{path}: 'Output:' can only say {SAME_ON_ALL_DEVICES!r}, not {output!r}")
    gpus = _positive_int(path, "GPUs", keys.get("GPUs"))
    timeout = _positive_int(path, "Timeout", keys.get("Timeout"))
    needs = tuple(n.strip() for n in keys.get("Needs", "").split(",") if n.strip())
    if unknown := [n for n in needs if n not in KNOWN_NEEDS]:
        raise SpecError(f"{path}: 'Needs:' names {unknown[0]!r}; it may name {', '.join(KNOWN_NEEDS)}")
    names = [n.strip() for n in keys.get("Variants", default).split(",") if n.strip()]
    variants = tuple(_variant(path, n, world_size, words[0] == "torchrun", gpus) for n in names)
    if not variants:
        raise SpecError(f"{path}: 'Variants:' lists nothing")
    if len(set(variants)) != len(variants):
        raise SpecError(f"{path}: 'Variants:' lists a variant twice")
    return Spec(path=path, run=run, variants=variants, timeout=timeout,
                same_on_all_devices=output is not None,
                starts_processes=words[0] == "python" and _starts_processes(tree), needs=needs)


def _starts_processes(tree: ast.Module) -> bool:
    """Whether the code (not its docstring or comments) imports a process-starting module or
    calls one of :data:`PROCESS_CALLS`."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            if (func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")) in PROCESS_CALLS:
                return True
            continue
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            modules = [node.module or ""]
        else:
            continue
        if any(name == module or name.startswith(module + ".") for name in modules for module in PROCESS_MODULES):
            return True
    return False


def _positive_int(path: Path, key: str, text: str | None) -> int | None:
    if text is None:
        return None
    if not text.isdigit() or int(text) < 1:
        raise SpecError(f"{path}: '{key}:' must be a positive whole number, not {text!r}")
    return int(text)


def _variant(path: Path, name: str, world_size: int, distributed: bool, gpus: int | None) -> Variant:
    parts = name.split("-")
    sized = distributed and len(parts) == 3 and parts[2].isdigit() and int(parts[2]) >= 1
    if sized:
        world_size, parts = int(parts[2]), parts[:2]
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
        form = ("BACKEND-DEVICE or BACKEND-DEVICE-N (e.g. gloo-cpu, nccl-cuda-1)" if distributed
                else "a device (cpu or cuda)")
        raise SpecError(f"{path}: variant {name!r} must be {form}")
    if device not in KNOWN_DEVICES:
        raise SpecError(f"{path}: unknown device {device!r} in variant {name!r}; use cpu or cuda")
    if device == "cpu":
        need = 0
    elif gpus is not None:
        need = gpus
    else:
        need = world_size if backend == "nccl" else 1
    return Variant(device=device, backend=backend, world_size=world_size, gpus=need, sized=sized)
