"""``make cluster-records``: the multi-node scenarios on the virtual cluster (:mod:`.scenarios`,
:mod:`.fault_scenarios`, :mod:`.elastic`, :mod:`.slow_link`), run and recorded by :mod:`.cli`."""
