"""Random numbers in DataLoader workers: torch seeds random, torch and NumPy's global RNG
differently in each worker, but a generator object the dataset owns is copied as it is;
worker_init_fn reseeds it, and generator= makes the worker seeds reproducible.

Run: python data_seeding.py
"""
import random

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset, get_worker_info


# Each item draws one number from each source of random numbers
class Augment(Dataset):
    def __init__(self):
        self.rng = np.random.default_rng(0)  # created once, in the main process

    def __len__(self):
        return 4

    def __getitem__(self, i):
        return {
            "worker": get_worker_info().id,
            "random": random.randint(0, 999),
            "torch": torch.randint(0, 1000, ()).item(),
            "np.random": np.random.randint(0, 1000),
            "self.rng": int(self.rng.integers(0, 1000)),
        }


# worker_init_fn: give the dataset copy in this worker a generator of its own
def reseed(worker_id):
    info = get_worker_info()
    info.dataset.rng = np.random.default_rng(info.seed)  # info.seed == torch.initial_seed()


def show(loader):
    for batch in loader:  # batch_size=None: one item at a time
        print("  ", batch)


if __name__ == "__main__":  # required: workers may start by importing this file
    torch.manual_seed(0)
    print("no worker_init_fn: self.rng repeats in each worker")
    show(DataLoader(Augment(), batch_size=None, num_workers=2))

    print("worker_init_fn=reseed:")
    show(DataLoader(Augment(), batch_size=None, num_workers=2, worker_init_fn=reseed))

    # The worker seeds come from the loader's generator (default: torch's global one)
    def seeds(seed):
        loader = DataLoader(Augment(), batch_size=None, num_workers=2, worker_init_fn=reseed,
                            generator=torch.Generator().manual_seed(seed))
        return [batch["self.rng"] for batch in loader]

    print("generator seeded 1, twice:", seeds(1), seeds(1))
    print("generator seeded 2:", seeds(2))
