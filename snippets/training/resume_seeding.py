"""Seed Python's random, NumPy and torch in one function; deterministic algorithms and what they
cost; a DataLoader whose workers draw the same numbers on every run.

Run: python resume_seeding.py
"""
import random

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


def seed_everything(seed):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)  # seeds the CPU and every CUDA device
    # on CUDA, also set CUBLAS_WORKSPACE_CONFIG=:4096:8 in the environment, before any CUDA work
    torch.use_deterministic_algorithms(True)


def seed_worker(worker_id):  # the recipe of the reproducibility notes
    worker_seed = torch.initial_seed() % 2**32
    np.random.seed(worker_seed)
    random.seed(worker_seed)


class Noisy(Dataset):  # each item draws from all three generators
    def __len__(self):
        return 4

    def __getitem__(self, i):
        noise = random.random() + np.random.rand() + torch.rand(()).item()
        return torch.tensor([i + noise])


def batches(seed, **options):
    loader = DataLoader(Noisy(), batch_size=2, shuffle=True, num_workers=2,
                        generator=torch.Generator().manual_seed(seed), **options)
    return [b.flatten().tolist() for b in loader]


if __name__ == "__main__":  # required where workers start by importing this file
    seed_everything(0)
    print("deterministic:", torch.are_deterministic_algorithms_enabled())
    first = batches(0, worker_init_fn=seed_worker)
    print("batches:", [[round(v, 3) for v in batch] for batch in first])
    # draws in the main process change nothing: the loader's generator decides
    torch.rand(100), np.random.rand(100), random.random()
    print("same order and noise:", first == batches(0, worker_init_fn=seed_worker))
    # torch 2.15 seeds random and NumPy in each worker itself, from that generator
    plain = batches(0)
    torch.rand(100), np.random.rand(100), random.random()
    print("without worker_init_fn, same:", plain == batches(0))

    # The cost: slower kernels, and errors where no deterministic kernel exists
    try:
        torch.zeros(3).put_(torch.tensor([0, 0]), torch.tensor([1.0, 2.0]))
    except RuntimeError as error:
        print(f"RuntimeError: {str(error).split('. ')[0]}")  # the first sentence
    print("torch.empty is filled:", torch.empty(2))
    torch.use_deterministic_algorithms(True, warn_only=True)  # a warning instead of the error
    print("warn_only:", torch.is_deterministic_algorithms_warn_only_enabled())
