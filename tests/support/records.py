"""Writing expected-output files in tests, always through the format's own constructor
(:meth:`refsite.snippets.Record.from_run`) and writer, never as hand-made JSON."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from refsite import snippets

#: The torch a test record claims (tests run plain-Python snippets, not torch).
TEST_TORCH = "2.15.0+test"
#: What a GPU variant's test record names as its GPUs.
TEST_GPU = snippets.GpuProvenance(model="Test GPU", count=1, driver="1.0", cuda="1.1", nccl="1.2.3",
                                  date="2026-01-02")


def write_outputs(snippet: Path, variant_id: str, outputs: tuple[str, ...], *, root: Path | None = None,
                  torch: str = TEST_TORCH) -> Path:
    """Record ``outputs`` (one per rank) as what ``variant_id`` of ``snippet`` printed; the record
    names the snippet relative to ``root`` (default: its own folder's parent)."""
    spec = snippets.read_spec(snippet)
    variant = next(v for v in spec.variants if v.id == variant_id)
    rel = snippet.relative_to(root or snippet.parent.parent).as_posix()
    path = spec.record_path(variant)
    gpu = None if variant.device == "cpu" else TEST_GPU
    snippets.write_record(path, snippets.Record.from_run(spec, variant, rel, torch, outputs, gpu))
    return path


def record_by_running(snippet: Path, variant_id: str, *, root: Path | None = None) -> Path:
    """Run a plain-Python ``snippet`` once per rank as ``variant_id`` (``RANK``/``WORLD_SIZE`` and
    the variant's environment set) and record what each printed."""
    spec = snippets.read_spec(snippet)
    variant = next(v for v in spec.variants if v.id == variant_id)
    outputs = []
    for rank in range(variant.world_size):
        env = {**os.environ, **variant.env, "RANK": str(rank), "WORLD_SIZE": str(variant.world_size)}
        done = subprocess.run([sys.executable, snippet.name], cwd=snippet.parent, env=env,
                              capture_output=True, text=True, check=True, timeout=60)
        outputs.append(done.stdout)
    return write_outputs(snippet, variant_id, tuple(outputs), root=root)


def record_all_cpu(snippets: Path) -> None:
    """Record the CPU variants of the ``snippet`` test root's two snippets (``tests/roots``)."""
    record_by_running(snippets / "single.py", "cpu", root=snippets)
    record_by_running(snippets / "pair.py", "gloo-cpu-2", root=snippets)
