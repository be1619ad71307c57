"""The measurement commands, one package or module each: ``python -m refsite.commands.compat.cli``
(``make compat``), :mod:`.bench` (``make bench``), ``refsite.commands.cluster.cli``
(``make cluster-records``), ``refsite.commands.slurm.doctest`` (``make doctest-slurm``),
:mod:`.gpu_capture` (``make gpu-capture``), :mod:`.exit_abort`, :mod:`.check_install`. They run
snippets through :mod:`refsite.testing` and write the files of :mod:`refsite.measurements`."""
