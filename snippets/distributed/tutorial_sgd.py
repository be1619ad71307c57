"""Tutorial, synchronous SGD: partition a dataset across ranks and average the gradients by hand.

Each rank trains on its own part of a synthetic regression dataset (nothing is downloaded).
After every backward pass, average_gradients all-reduces the gradients, so every rank takes the
same step: the loss falls, and the parameters stay identical on all ranks.

Run: torchrun --standalone --nproc-per-node=2 tutorial_sgd.py
"""
import os
import random

import torch
import torch.distributed as dist
# Before init_process_group: imported later (as DDP and optimizers do), it keeps a reference
# to the default group, and destroy_process_group() cannot free it (torch 2.15).
import torch.distributed.nn  # noqa: F401
from torch import nn
from torch.utils.data import DataLoader, Dataset, TensorDataset


class Partition(Dataset):
    """The samples of `data` at positions `index`."""

    def __init__(self, data, index):
        self.data, self.index = data, index

    def __len__(self):
        return len(self.index)

    def __getitem__(self, i):
        return self.data[self.index[i]]


class DataPartitioner:
    """Shuffle the indices once (same seed on every rank), then cut one slice per rank."""

    def __init__(self, data, sizes, seed=1234):
        self.data = data
        indexes = list(range(len(data)))
        random.Random(seed).shuffle(indexes)
        self.partitions = []
        for fraction in sizes:
            length = int(fraction * len(data))
            self.partitions.append(indexes[:length])
            indexes = indexes[length:]

    def use(self, partition):
        return Partition(self.data, self.partitions[partition])


def synthetic_dataset(n=512):
    """y = x @ [2, -1, 0.5, 3] + 1, plus a little noise."""
    gen = torch.Generator().manual_seed(0)
    x = torch.randn(n, 4, generator=gen)
    y = (x @ torch.tensor([[2.0], [-1.0], [0.5], [3.0]]) + 1.0
         + 0.1 * torch.randn(n, 1, generator=gen))
    return TensorDataset(x, y)


def partition_dataset(rank, world_size, global_batch=64):
    partition = DataPartitioner(synthetic_dataset(), [1.0 / world_size] * world_size).use(rank)
    order = torch.Generator().manual_seed(rank)  # each rank shuffles its own part
    return DataLoader(partition, batch_size=global_batch // world_size, shuffle=True,
                      generator=order)


def average_gradients(model):
    """All-reduce every gradient and divide by the world size: the gradient of the whole
    batch."""
    world_size = float(dist.get_world_size())
    for param in model.parameters():
        dist.all_reduce(param.grad, op=dist.ReduceOp.SUM)
        param.grad /= world_size


def parameters_identical(model):
    """Gather every rank's parameters and compare them bit for bit."""
    flat = torch.cat([p.detach().flatten() for p in model.parameters()])
    copies = [torch.zeros_like(flat) for _ in range(dist.get_world_size())]
    dist.all_gather(copies, flat)
    return all(torch.equal(copy, copies[0]) for copy in copies)


backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
if os.environ.get("DEVICE", "cpu") == "cuda":
    device = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device)
else:
    device = torch.device("cpu")
dist.init_process_group(backend, device_id=device if device.type == "cuda" else None)
rank, world_size = dist.get_rank(), dist.get_world_size()

torch.manual_seed(0)  # the same initial weights on every rank
model = nn.Linear(4, 1).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
loader = partition_dataset(rank, world_size)
print(f"rank {rank}: {len(loader.dataset)} samples, {len(loader)} batches per epoch")
for epoch in range(4):
    total = 0.0
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        optimizer.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        average_gradients(model)
        optimizer.step()
        total += loss.item()
    print(f"epoch {epoch}: mean loss on my part {total / len(loader):.4f}, "
          f"parameters identical on all ranks: {parameters_identical(model)}")
print(f"weight {[round(w, 2) for w in model.weight.flatten().tolist()]}, bias "
      f"{model.bias.item():.2f}")

dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
