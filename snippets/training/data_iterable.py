"""IterableDataset with num_workers: every worker runs __iter__ on its own copy, so each
item comes once per worker; get_worker_info() lets each worker take its own share.

Run: python data_iterable.py
"""
from torch.utils.data import DataLoader, IterableDataset, get_worker_info


# A stream of the numbers start..end-1: no length, no indices
class Range(IterableDataset):
    def __init__(self, start, end):
        self.start, self.end = start, end

    def __iter__(self):
        return iter(range(self.start, self.end))


class ShardedRange(Range):
    def __iter__(self):
        info = get_worker_info()
        if info is None:  # num_workers=0: the main process reads everything
            return iter(range(self.start, self.end))
        # worker k of n takes every n-th item, starting at the k-th
        return iter(range(self.start + info.id, self.end, info.num_workers))


def items(loader):
    return sorted(x for batch in loader for x in batch.tolist())


if __name__ == "__main__":  # required: workers may start by importing this file
    print("num_workers=0:", items(DataLoader(Range(0, 6), batch_size=2)))
    # Without splitting, both workers yield the whole stream: every item twice
    print("2 workers, no split:", items(DataLoader(Range(0, 6), batch_size=2, num_workers=2)))
    # With get_worker_info(), each item once
    loader = DataLoader(ShardedRange(0, 6), batch_size=2, num_workers=2)
    print("2 workers, split:", items(loader))
    print("batches in arrival order:", [batch.tolist() for batch in loader])
    # No sampler: shuffle=True is refused
    try:
        DataLoader(Range(0, 6), shuffle=True)
    except ValueError as error:
        print(f"ValueError: {error}")
