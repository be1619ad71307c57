"""torch.multiprocessing.spawn: start the worker processes from Python instead of torchrun.
spawn(fn, args, nprocs) calls fn(i, *args) in nprocs new processes and waits for them; each
worker joins the process group itself, with the rank and world size it is given.

Run: python mp_spawn.py
Variants: cpu
Timeout: 120
"""
import os
import shutil
import tempfile

import torch
import torch.distributed as dist
import torch.multiprocessing as mp


def worker(rank, world_size, tmp):
    # Rendezvous through a file both processes can open (no port to choose); with
    # MASTER_ADDR/MASTER_PORT set, init_method="env://" works as under torchrun.
    init_file = os.path.join(tmp, "init")
    dist.init_process_group("gloo", init_method=f"file://{init_file}",
                            rank=rank, world_size=world_size)
    t = torch.tensor([float(rank + 1)])
    dist.all_reduce(t)
    # Output from several processes interleaves at random: leave it for the parent instead.
    with open(os.path.join(tmp, f"out{rank}.txt"), "w") as f:
        f.write(f"process {rank} of {dist.get_world_size()}: all_reduce sum {t.item()}")
    dist.barrier()  # no rank tears down while a peer still talks to it
    dist.destroy_process_group()


if __name__ == "__main__":  # required: spawn starts fresh interpreters that import this file
    world_size = 2
    tmp = tempfile.mkdtemp()
    mp.spawn(worker, args=(world_size, tmp), nprocs=world_size, join=True)  # raises if one fails
    for rank in range(world_size):
        with open(os.path.join(tmp, f"out{rank}.txt")) as f:
            print(f.read())
    shutil.rmtree(tmp)
