"""Checks of the pages as written: the two language trees say the same things (parity), prose
quotes only recorded outputs, signatures match the installed torch, version notes come from
measurements. Each check is a function returning its findings; ``tests/lint`` runs them."""
