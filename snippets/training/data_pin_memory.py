"""pin_memory=True: the loader puts each batch in pinned (page-locked) memory, from which
copies to the GPU can run asynchronously (non_blocking=True).

Run: python data_pin_memory.py
Variants: cpu, cuda
"""
import os

import torch
from torch.utils.data import DataLoader, TensorDataset

DEVICE = os.environ.get("DEVICE", "cpu")  # DEVICE=cuda on a GPU machine
device = torch.device(DEVICE)

if __name__ == "__main__":  # required: workers may start by importing this file
    ds = TensorDataset(torch.arange(8.0).reshape(4, 2), torch.arange(4))
    # Pin only when the batches go to a GPU: pinning is for host-to-device copies
    loader = DataLoader(ds, batch_size=2, num_workers=2, pin_memory=device.type == "cuda")
    for x, y in loader:
        print("pinned:", x.is_pinned(), y.is_pinned())
        # From pinned memory the copy is asynchronous; from pageable memory it waits
        x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
        print("on", x.device.type, (x.sum(dim=1) + y).tolist())
