"""The example of the page "Testing distributed code": a user's distributed function under test.

``snippets/distributed/global_mean.py`` defines ``global_mean``; these tests run the script on
2 and 3 real ranks through the ``forkserver`` fixture that the installed ``ranktest`` package
gives pytest, and check what every rank printed, as a reader's own test would. (What a failing
rank looks like to such a test is checked where the package is installed alone, in
``tests/harness/test_package_install.py``.)
"""

from __future__ import annotations


import pytest
from tests.support.paths import SNIPPETS

SCRIPT = SNIPPETS / "distributed" / "global_mean.py"


@pytest.mark.parametrize("world_size, mean", [(2, "7.0000"), (3, "14.0000")])
def test_global_mean_counts_every_value_once(forkserver, world_size, mean):
    # Rank r holds r + 1 values: 0 | 10, 11 | 20, 21, 22. Their mean is 7 on 2 ranks, 14 on 3.
    result = forkserver.run(SCRIPT, world_size=world_size, timeout=30).check()
    assert len(result.ranks) == world_size
    for rank in result.ranks:
        assert f"global_mean: {mean}," in rank.stdout, rank.stdout
