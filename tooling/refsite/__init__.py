"""The site's own tooling, one package in worlds that import one way only
(``refsite.lint.import_rules``):

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
``refsite.ledger``
    the API ledger's format; standard library only.

``refsite.languages``, ``refsite.interface_words`` (the words the pages show, in every language),
``refsite.project`` and the other shared modules (standard library only) serve all of them.
``tests/layout/test_import_rules.py`` holds every module to these rules.
"""

__version__ = "0.3.0"
