"""random_split, Subset, ConcatDataset, ChainDataset and StackDataset: split datasets, take
part of one, put several end to end or side by side.

Run: python data_split.py
"""
import torch
from torch.utils.data import (ChainDataset, ConcatDataset, DataLoader, IterableDataset,
                              StackDataset, Subset, TensorDataset, random_split)

data = TensorDataset(torch.arange(10))

# Fractions are turned into lengths; a seeded generator makes the split reproducible
train, val = random_split(data, [0.8, 0.2], generator=torch.Generator().manual_seed(0))
print(type(train).__name__, "train:", train.indices, "val:", val.indices)
# Lengths are rounded down, and the remainder is handed out one by one from the first part
parts = random_split(range(7), [0.5, 0.3, 0.2], generator=torch.Generator().manual_seed(0))
print("7 items as 0.5/0.3/0.2:", [len(p) for p in parts])
try:
    random_split(data, [6, 3])
except ValueError as error:
    print(f"ValueError: {error}")

# Subset: the items at the given indices, in that order
sub = Subset(data, [9, 0, 5])
print("Subset:", [x.item() for (x,) in sub])

# ConcatDataset (also `a + b`): end to end, indexed as one dataset
both = ConcatDataset([range(3), range(100, 102)])
print("ConcatDataset:", len(both), list(both), "both[3] =", both[3])
print("a + b:", type(data + data).__name__, len(data + data))


class Stream(IterableDataset):
    def __init__(self, start, end):
        self.start, self.end = start, end

    def __iter__(self):
        return iter(range(self.start, self.end))


# ChainDataset: iterable datasets one after the other
print("ChainDataset:", list(ChainDataset([Stream(0, 2), Stream(10, 12)])))

# StackDataset: datasets of the same length side by side; keywords give dict samples
pairs = StackDataset(image=torch.zeros(3, 2), label=range(3))
print("StackDataset item:", sorted(pairs[1]), "batch:",
      next(iter(DataLoader(pairs, batch_size=3)))["label"])
try:
    StackDataset(range(3), range(4))
except ValueError as error:
    print(f"ValueError: {error}")
