"""Samplers choose the indices a DataLoader reads: SequentialSampler, RandomSampler,
SubsetRandomSampler, WeightedRandomSampler (class balancing) and BatchSampler.

Run: python data_samplers.py
"""
import torch
from torch.utils.data import (BatchSampler, DataLoader, RandomSampler, Sampler,
                              SequentialSampler, SubsetRandomSampler, TensorDataset,
                              WeightedRandomSampler)


def gen():
    return torch.Generator().manual_seed(0)


data = list(range(10))  # a list is a map-style dataset too
print("Sequential:", list(SequentialSampler(data)))  # shuffle=False uses this
print("Random:", list(RandomSampler(data, generator=gen())))  # shuffle=True uses this
# With replacement: num_samples draws, repeats allowed
print("Random, replacement:", list(RandomSampler(data, replacement=True, num_samples=6,
                                                 generator=gen())))
# Only these indices, in a new order each epoch (a validation split, for example)
print("SubsetRandom:", list(SubsetRandomSampler([0, 2, 4, 6], generator=gen())))

# Class balancing: 90 samples of class 0, 10 of class 1
labels = torch.tensor([0] * 90 + [1] * 10)
weights = (1.0 / torch.bincount(labels))[labels]  # each sample: 1 / size of its class
sampler = WeightedRandomSampler(weights, num_samples=len(labels), generator=gen())
indices = torch.tensor(list(sampler))  # one epoch: 100 draws, with replacement
print("dataset:", torch.bincount(labels).tolist(), "drawn:",
      torch.bincount(labels[indices]).tolist())
distinct = indices.unique()
print("distinct samples drawn:", torch.bincount(labels[distinct]).tolist())

# BatchSampler groups another sampler's indices into lists
print("BatchSampler:",
      list(BatchSampler(SequentialSampler(data), batch_size=4, drop_last=False)))



# A sampler of your own: __iter__ yields indices, __len__ says how many
class EvensFirst(Sampler):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        return iter([*range(0, self.n, 2), *range(1, self.n, 2)])

    def __len__(self):
        return self.n


ds = TensorDataset(torch.arange(10))
print("custom sampler:",
      [x.tolist() for (x,) in DataLoader(ds, batch_size=5, sampler=EvensFirst(10))])
# sampler= replaces shuffle; batch_sampler= replaces batch_size, shuffle, sampler and drop_last
loader = DataLoader(ds, batch_size=4, sampler=SubsetRandomSampler([0, 2, 4, 6], generator=gen()))
print("loader with sampler:", [x.tolist() for (x,) in loader], "len:", len(loader))
try:
    DataLoader(ds, sampler=RandomSampler(ds), shuffle=True)
except ValueError as error:
    print(f"ValueError: {error}")
