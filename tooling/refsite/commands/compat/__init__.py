"""``make compat``: every CPU variant on each older torch release (:mod:`.cli`, :mod:`.run`,
:mod:`.errors`), and what a pin move changed (:mod:`.changes_between`)."""
