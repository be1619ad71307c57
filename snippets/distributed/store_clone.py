"""TCPStore clones for threads, and libuvBackend: each thread talks to the store through a
connection of its own.

Run: python store_clone.py
Variants: cpu
"""
import threading
from datetime import timedelta

import torch.distributed as dist

store = dist.TCPStore("127.0.0.1", 0, world_size=1, is_master=True,
                      timeout=timedelta(seconds=30))
print("libuvBackend:", store.libuvBackend)  # the server runs on libuv (use_libuv=True)

seen = {}


def worker(me, other):
    mine = store.clone()  # one clone per thread: a connection of its own to the same store
    mine.set(f"ready/{me}", "1")
    mine.wait([f"ready/{other}"])  # blocks until the other thread has set its key
    seen[me] = mine.get(f"ready/{other}")


threads = [threading.Thread(target=worker, args=pair) for pair in (("a", "b"), ("b", "a"))]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print("each thread saw the other's key:", dict(sorted(seen.items())))
print("the clone is another object:", store.clone() is not store)
