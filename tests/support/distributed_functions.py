"""Module-level functions that tests run on several ranks with ``Forkserver.run_function``."""

import torch
import torch.distributed as dist


def sum_of_ranks() -> None:
    t = torch.tensor([float(dist.get_rank())])
    dist.all_reduce(t)
    print(f"rank {dist.get_rank()}: {t.item()}")


def fails_on_rank_one() -> None:
    if dist.get_rank() == 1:
        raise AssertionError("rank 1 disagrees")
    dist.barrier()
