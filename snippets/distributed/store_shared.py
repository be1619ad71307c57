"""A TCPStore shared by two ranks, and PrefixStore views that keep programs' keys apart.

torchrun serves a TCPStore at MASTER_ADDR:MASTER_PORT; each rank connects to it as a client.
Two PrefixStores over that one connection write the same key name without clashing: the
server holds "job_a/epoch" and "job_b/epoch". The store also carries a work queue between the
ranks (queue_push / queue_pop), without any process group.

Run: torchrun --standalone --nproc-per-node=2 store_shared.py
"""
import os
from datetime import timedelta

import torch.distributed as dist

rank = int(os.environ["RANK"])
client = dist.TCPStore(os.environ["MASTER_ADDR"], int(os.environ["MASTER_PORT"]),
                       is_master=False, timeout=timedelta(seconds=30))
job_a = dist.PrefixStore("job_a", client)
job_b = dist.PrefixStore("job_b", client)
print(f"PrefixStore is a dist.Store: {isinstance(job_a, dist.Store)}; "
      f"wraps a {type(job_a.underlying_store).__name__}")

if rank == 0:
    job_a.set("epoch", "3")
    job_b.set("epoch", "7")
    for name in ("shard 0", "shard 1", "shard 2"):
        job_a.queue_push("todo", name)  # rank 0 hands out work ...
    job_a.set("queued", "yes")
job_a.wait(["queued"])  # rank 1 blocks here until rank 0 has queued everything
print(f"job_a.get('epoch') -> {job_a.get('epoch')}, job_b.get('epoch') -> {job_b.get('epoch')}")
print(f"client.get('job_a/epoch') -> {client.get('job_a/epoch')}")  # the full key on the server

if rank == 1:
    print(f"rank 1 sees queue_len('todo') = {job_a.queue_len('todo')}")
    print(f"rank 1 took {job_a.queue_pop('todo')}")  # ... and rank 1 takes it, oldest first
    job_a.set("took", "yes")
else:
    job_a.wait(["took"])
    print(f"rank 0 finds queue_len('todo') = {job_a.queue_len('todo')}")

dist.init_process_group("gloo", store=dist.PrefixStore("pg", client), rank=rank, world_size=2)
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
