"""The pytest side of the site: every snippet variant as a test item (:mod:`.collector`), running
snippets and holding them to their records (:mod:`.snippet_runs`), remembering passed costly
checks (:mod:`.passed_checks`), and the measurement commands (``python -m refsite.testing.compat``,
``.bench``, ``.measure_exit_abort``, ``.check_install``). Uses pytest and ``ranktest``; never Sphinx."""
