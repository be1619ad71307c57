"""Checks of the pages as written: the two language trees say the same things (parity), prose
quotes only recorded outputs, signatures match the installed torch, version notes come from
measurements, the Chinese pages use the glossary's terms; of the snippets (public torch API only,
``device_id`` where they can run on NCCL) and of the code (``make`` targets named exist, outcomes
judged by fields, the import rules). Each check is a function returning its findings; ``tests/lint``
and ``tests/layout`` run them. ``api_ledger``, ``import_rules``, ``glossary_terms``, ``public_api``,
``nccl_device_id``, ``make_targets`` and ``outcome_fields`` also run as ``python -m
refsite.lint.NAME``."""
