"""num_workers, get_worker_info, persistent_workers, prefetch_factor: load batches in
worker processes.

Run: python data_workers.py
"""
import os

from torch.utils.data import DataLoader, Dataset, get_worker_info


class Numbers(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        info = get_worker_info()  # None in the main process
        worker = "main" if info is None else f"worker {info.id} of {info.num_workers}"
        return i, worker, os.getpid()


# Print which worker built each batch; return the worker processes of each epoch
def run_epochs(loader):
    pids = []
    for epoch in range(2):
        batches, seen = [], set()
        for idx, worker, pid in loader:
            batches.append((idx.tolist(), worker[0]))
            seen.update(pid.tolist())
        print(f"epoch {epoch}:", batches)
        pids.append(seen)
    return pids


if __name__ == "__main__":  # required: workers may start by importing this file
    print("get_worker_info() here:", get_worker_info())
    # num_workers=0 (the default): the main process loads every batch itself
    idx, worker, _ = next(iter(DataLoader(Numbers(), batch_size=4)))
    print("num_workers=0:", idx.tolist(), worker[0])

    # num_workers=2: each worker builds whole batches, and they take turns
    loader = DataLoader(Numbers(), batch_size=2, num_workers=2)
    pids = run_epochs(loader)
    print("2 processes per epoch:", [len(p) for p in pids], "new ones each epoch:",
          pids[0] != pids[1])

    # persistent_workers=True: the same processes serve every epoch
    loader = DataLoader(Numbers(), batch_size=2, num_workers=2, persistent_workers=True,
                        prefetch_factor=4)  # up to 4 batches in flight per worker
    pids = run_epochs(loader)
    print("same processes every epoch:", pids[0] == pids[1])

    # prefetch_factor and persistent_workers need num_workers > 0
    try:
        DataLoader(Numbers(), batch_size=2, prefetch_factor=4)
    except ValueError as error:
        print(f"ValueError: {error}")
