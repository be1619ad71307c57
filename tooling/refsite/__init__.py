"""The site's own tooling, one package in four worlds that import one way only:

``refsite.snippets``
    the snippet file contract (header, records, translations, compat results); standard library only.
``refsite.testing``
    the pytest side: the snippet collector, running snippets through ``ranktest``, pass reuse,
    and the measurement commands (``make compat``, ``make bench``); never Sphinx.
``refsite.sphinxext``
    the Sphinx extensions (directives, roles, language switch, search) and their assets; never
    pytest, ``ranktest`` or torch.
``refsite.lint``
    the page checks (parity of the two trees, prose, signatures, version notes); never Sphinx
    or pytest.

``refsite.languages`` and ``refsite.project`` (standard library only) serve all four.
``tests/layout/test_import_rules.py`` holds every module to these rules.
"""

__version__ = "0.3.0"
