"""Starting the processes yourself: one process per rank, a free port, and env:// initialization.

Without torchrun, the script sets what torchrun would: MASTER_ADDR, a MASTER_PORT that is free
(found by binding port 0, never hard-coded), and each process's rank and the world size. The
workers hand their results to the parent, which prints them in rank order.

Run: python tutorial_launch.py
"""
import os
import socket

import torch
import torch.distributed as dist
import torch.multiprocessing as mp


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))  # port 0: the system picks a free port
        return sock.getsockname()[1]


def run(rank, world_size, results):
    """The distributed part: here, one all_reduce."""
    tensor = torch.tensor([float(rank + 1)])
    dist.all_reduce(tensor)
    results.put((rank, f"rank {rank} of {world_size}: all_reduce gives {tensor.item()}"))


def init_process(rank, world_size, results, fn, backend="gloo"):
    """Set up the process group, run fn, tear the group down."""
    dist.init_process_group(backend, rank=rank, world_size=world_size)  # env:// by default
    try:
        fn(rank, world_size, results)
    finally:
        dist.barrier()  # no rank tears down while a peer still talks to it
        dist.destroy_process_group()


if __name__ == "__main__":
    world_size = 2
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(free_port())  # children inherit the environment
    # "spawn" also works, but starts a fresh interpreter per rank
    context = mp.get_context("fork")
    results = context.SimpleQueue()
    processes = [context.Process(target=init_process, args=(rank, world_size, results, run))
                 for rank in range(world_size)]
    for p in processes:
        p.start()
    lines = sorted(results.get() for _ in range(world_size))
    for p in processes:
        p.join()
    for _, line in lines:
        print(line)
    print(f"exit codes: {[p.exitcode for p in processes]}")
