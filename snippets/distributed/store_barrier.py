"""Store.list_keys and Store.barrier: every key of a store, and a barrier without a process
group (threads with their own clones stand in for processes).

Run: python store_barrier.py
Variants: cpu
"""
import threading
from datetime import timedelta

import torch.distributed as dist

store = dist.TCPStore("127.0.0.1", 0, world_size=1, is_master=True,
                      timeout=timedelta(seconds=30))
store.set("config/lr", "0.1")
store.set("config/batch", "32")
print("list_keys:", sorted(store.list_keys()))

passed = []


def worker(name):
    mine = store.clone()
    mine.set(f"ready/{name}", "1")
    mine.barrier("start", 2)  # blocks until 2 callers reached barrier("start", 2)
    passed.append(name)


threads = [threading.Thread(target=worker, args=(name,)) for name in ("a", "b")]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print("passed the barrier:", sorted(passed))
print("keys set by the threads:", sorted(k for k in store.list_keys() if k.startswith("ready/")))
