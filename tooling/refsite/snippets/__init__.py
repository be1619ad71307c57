"""The snippet file contract: what a snippet declares (its header), what its runner recorded
(one expected-output file per variant), and their Chinese comments. Standard library only, so
the test collector, the Sphinx extensions and the page checks all read snippets through it.

The names below are the contract; the submodules hold them by job: :mod:`.spec` (the header),
:mod:`.records` (the expected-output files and how outputs are compared), :mod:`.references`
(a reference ``AREA/FILE.py[VARIANT]`` resolved to its spec, variant and record), :mod:`.errors`,
:mod:`.localized` (comments in another language), :mod:`.compat_results` (which releases a
variant runs on), :mod:`.translations` (the command line for translation files). The other
files the project writes have their format module here too, writer beside reader:
:mod:`.cluster_records` (the multi-node records, and the registry of their scenarios),
:mod:`.change_files` (what a torch pin move changed), :mod:`.compat_matrix` (the one read
model of the compat results: every reader goes through it), :mod:`.compat_status`,
:mod:`.compat_export` and :mod:`.compat_schema` (which results are missing; the results as
published data and its schemas), :mod:`.provenance` (the fields every
measurement file starts with, and its one writer), :mod:`.machine_paths` (paths of the build
machine kept out of measurement files).
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
