"""Dataset, TensorDataset and DataLoader: a map-style dataset read in batches, shuffled
reproducibly, with or without the last short batch.

Run: python data_dataset.py
"""
import torch
from torch.utils.data import DataLoader, Dataset, TensorDataset


# A map-style dataset: a length, and an item for each index
class Squares(Dataset):
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if not 0 <= i < self.n:  # lets `for sample in ds` stop
            raise IndexError(i)
        return torch.tensor([float(i)]), i * i  # (features, label)


ds = Squares(10)
print("len:", len(ds), "ds[3]:", ds[3])

# TensorDataset: the same, for tensors already in memory (indexed along dim 0)
xs, ys = torch.arange(10.0).unsqueeze(1), torch.arange(10) ** 2
tds = TensorDataset(xs, ys)
print("tds[3]:", tds[3])

# batch_size=4: 10 items give batches of 4, 4 and 2
loader = DataLoader(tds, batch_size=4)
for x, y in loader:
    print("batch:", tuple(x.shape), y.tolist())
print("len(loader):", len(loader))

# drop_last=True drops the short last batch
print("drop_last len:", len(DataLoader(tds, batch_size=4, drop_last=True)))

# shuffle=True with a seeded generator: a new order each epoch, the same on every run
loader = DataLoader(ds, batch_size=4, shuffle=True, generator=torch.Generator().manual_seed(0))
for epoch in range(2):
    print(f"epoch {epoch}:", [y.tolist() for _, y in loader])

# A custom Dataset returns Python ints: the batch is an int64 tensor
x, y = next(iter(DataLoader(ds, batch_size=3)))
print("x:", x.dtype, tuple(x.shape), "y:", y.dtype, y.tolist())
