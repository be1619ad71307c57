"""The example of the page "Testing distributed code": a user's distributed function under test.

``snippets/distributed/global_mean.py`` defines ``global_mean``; these tests run the script on
2 and 3 real ranks through the harness and check what every rank printed, then show what a
failing rank looks like to the test.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from harness import Forkserver, RankFailure

SCRIPT = Path(__file__).resolve().parent.parent / "snippets" / "distributed" / "global_mean.py"


@pytest.fixture(scope="module")
def server():
    with Forkserver() as server:  # one warm server for the whole module
        yield server


@pytest.mark.parametrize("world_size, mean", [(2, "7.0000"), (3, "14.0000")])
def test_global_mean_counts_every_value_once(server, world_size, mean):
    # Rank r holds r + 1 values: 0 | 10, 11 | 20, 21, 22. Their mean is 7 on 2 ranks, 14 on 3.
    result = server.run(SCRIPT, world_size=world_size, timeout=30).check()
    assert len(result.ranks) == world_size
    for rank in result.ranks:
        assert f"global_mean: {mean}," in rank.stdout, rank.stdout


def test_a_failing_rank_is_named_with_its_traceback(server, tmp_path):
    script = tmp_path / "broken.py"
    script.write_text(textwrap.dedent("""\
        import torch.distributed as dist
        dist.init_process_group("gloo")
        if dist.get_rank() == 1:
            raise ValueError("rank 1 got an empty batch")
        dist.barrier()
        dist.destroy_process_group()
    """))
    result = server.run(script, world_size=2, timeout=30)
    assert not result.ok and result.first_failure == 1
    with pytest.raises(RankFailure, match="rank 1 failed first") as failure:
        result.check()
    assert "ValueError: rank 1 got an empty batch" in str(failure.value)
