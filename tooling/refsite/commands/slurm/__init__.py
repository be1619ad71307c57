"""``make doctest-slurm``: the snippets as jobs on a site's Slurm cluster (:mod:`.doctest`, :mod:`.plan`,
:mod:`.jobs`, :mod:`.results`, :mod:`.examples`, :mod:`.probe`)."""
