"""A test of global_mean.py on 2 and 3 real ranks, through ranktest's forkserver fixture.

Put it beside global_mean.py and run `python -m pytest test_global_mean.py`.
"""
from pathlib import Path

import pytest

SCRIPT = Path(__file__).with_name("global_mean.py")


@pytest.mark.parametrize("world_size, mean", [(2, "7.0000"), (3, "14.0000")])
def test_global_mean_counts_every_value_once(forkserver, world_size, mean):
    # Rank r holds r + 1 values: 0 | 10, 11 | 20, 21, 22. Their mean is 7 on 2 ranks, 14 on 3.
    result = forkserver.run(SCRIPT, world_size=world_size, timeout=30).check()
    assert len(result.ranks) == world_size
    for rank in result.ranks:
        assert f"global_mean: {mean}," in rank.stdout, rank.stdout
