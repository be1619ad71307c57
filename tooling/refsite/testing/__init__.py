"""The pytest side of the site: every snippet variant as a test item (:mod:`.collector`), running
snippets and holding them to their records (:mod:`.snippet_runs`), remembering passed costly
checks (:mod:`.passed_checks`). The measurement commands that use them are in
:mod:`refsite.commands`. Uses pytest and ``ranktest``; never Sphinx."""
