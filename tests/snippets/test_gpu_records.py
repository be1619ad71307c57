"""The committed GPU records keep the rule the GPU runners page states: a record made on a GPU
names its GPUs (format 2 on), one from before that (format 1) is shown as not naming it, and a
record made with another torch than the pin is shown with its own torch."""

from __future__ import annotations

import json

from refsite import snippets
from refsite.interface_words import words
from refsite.languages import LANGUAGES
from refsite.sphinxext.gpu_variants import captured_text, rows
from tests.support.paths import SNIPPETS


def gpu_records() -> list[tuple[str, snippets.Record, int]]:
    found = []
    for row in rows(SNIPPETS):
        if row.record is not None:
            spec = snippets.read_spec(SNIPPETS / row.snippet)
            variant = next(v for v in spec.variants if v.id == row.variant)
            raw = json.loads(spec.record_path(variant).read_text(encoding="utf-8"))
            found.append((f"{row.snippet} [{row.variant}]", row.record, raw["format"]))
    return found


def test_gpu_records_name_their_gpu_or_predate_that():
    unnamed = [name for name, record, fmt in gpu_records() if record.gpu is None and fmt >= 2]
    assert unnamed == [], f"GPU records of format 2 without their GPU: {unnamed}; re-record them on a GPU"


def test_gpu_records_are_shown_with_their_own_torch():
    # Made with the pin or not (a runner's own torch), the table names the torch that ran.
    found = gpu_records()
    assert found, "no GPU record is committed: this rule holds nothing"
    for name, record, _ in found:
        for language in LANGUAGES:
            assert record.torch in captured_text(record, words(language)), name
