"""The formats of the files under ``docs/measurements/``, writer beside reader; standard library
only, so the runner, the Sphinx extensions and the page checks read them one way:
:mod:`.compat_results` (which releases a variant runs on, one file per release),
:mod:`.compat_matrix` (the one read model of those results: every reader goes through it),
:mod:`.compat_status`, :mod:`.compat_export` and :mod:`.compat_schema` (which results are missing;
the results as published data and its schemas), :mod:`.gpu_captures` (what a GPU capture ran on),
:mod:`.cluster_records` (the multi-node records, and the registry of their scenarios),
:mod:`.change_files` (what a torch pin move changed), :mod:`.provenance` (the fields every
measurement file starts with, and its one writer), :mod:`.machine_paths` (paths of the build
machine kept out of measurement files).
"""
