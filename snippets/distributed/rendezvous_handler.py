"""register_rendezvous_handler: a URL scheme of your own for init_process_group(init_method=...).

init_process_group hands init_method to dist.rendezvous(), which picks the handler registered
for the URL's scheme ("env", "tcp" and "file" come with torch). A handler is a generator that
yields (store, rank, world_size). This one, "myjob://NAME", reads torchrun's variables and
gives each job its own PrefixStore on torchrun's TCPStore.

Run: torchrun --standalone --nproc-per-node=2 rendezvous_handler.py
"""
import os
from datetime import timedelta
from urllib.parse import urlparse

import torch
import torch.distributed as dist


def myjob_handler(url, **kwargs):
    print(f"handler called with {url!r}, keyword arguments {sorted(kwargs)}")
    client = dist.TCPStore(os.environ["MASTER_ADDR"], int(os.environ["MASTER_PORT"]),
                           is_master=False, timeout=kwargs.get("timeout", timedelta(seconds=30)))
    store = dist.PrefixStore(urlparse(url).netloc, client)  # the job name keeps keys apart
    yield store, int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])


dist.register_rendezvous_handler("myjob", myjob_handler)
try:
    dist.register_rendezvous_handler("myjob", myjob_handler)
except RuntimeError as exc:
    print(f"registering twice: {exc}")
try:
    dist.init_process_group("gloo", init_method="nojob://x")
except RuntimeError as exc:
    print(f"unknown scheme: {exc}")

# rendezvous() called directly adds rank and world_size to the URL it passes on
store, rank, world_size = next(dist.rendezvous("myjob://probe", rank=int(os.environ["RANK"]),
                                               world_size=2))
print(f"rendezvous() yielded a {type(store).__name__}, rank {rank}, world_size {world_size}")

dist.init_process_group("gloo", init_method="myjob://job42")
tensor = torch.tensor([dist.get_rank() + 1])
dist.all_reduce(tensor)
print(f"init_method='myjob://job42': rank {dist.get_rank()} of {dist.get_world_size()}, "
      f"all_reduce gives {tensor.item()}")

del store
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
