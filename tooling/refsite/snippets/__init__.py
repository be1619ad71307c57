"""The snippet file contract: what a snippet declares (its header), what its runner recorded
(one expected-output file per variant), and their Chinese comments. Standard library only, so
the test collector, the Sphinx extensions and the page checks all read snippets through it.

The names below are the contract; the submodules hold them by job: :mod:`.spec` (the header),
:mod:`.records` (the expected-output files and how outputs are compared), :mod:`.references`
(a reference ``AREA/FILE.py[VARIANT]`` resolved to its spec, variant and record), :mod:`.errors`,
:mod:`.localized` (comments in another language), :mod:`.translations` (the command line for
translation files). The measurement files (compat results, GPU captures, cluster records) have
their formats in :mod:`refsite.measurements`.
"""

from refsite.snippets.errors import SpecError
from refsite.snippets.records import (COMPARISON_RULES, FIX_COMMAND, RECORD_FORMAT, GpuProvenance, Record, comparable,
                                      normalize_output, output_diff, read_record, stale_reason, write_record)
from refsite.snippets.references import ReferenceProblem, Resolved, resolve
from refsite.snippets.spec import (HEADER_KEYS, KNOWN_BACKENDS, KNOWN_DEVICES, KNOWN_NEEDS, SAME_ON_ALL_DEVICES, Spec, Variant,
                                   is_snippet, read_spec, sha256_of, snippet_paths)

__all__ = ["COMPARISON_RULES", "FIX_COMMAND", "GpuProvenance", "HEADER_KEYS", "KNOWN_BACKENDS", "KNOWN_DEVICES", "KNOWN_NEEDS", "RECORD_FORMAT",
           "SAME_ON_ALL_DEVICES", "Record", "ReferenceProblem", "Resolved", "Spec", "SpecError", "Variant", "comparable", "is_snippet",
           "normalize_output", "output_diff", "read_record", "read_spec", "resolve", "sha256_of", "snippet_paths",
           "stale_reason", "write_record"]
