"""More of the c10d stores: a TCPStore's host, port and libuvBackend, list_keys, barrier,
clone for threads, has_extended_api; PrefixStore.underlying_store and FileStore.path.

Run: python store_more.py
Variants: cpu
"""
import os
import tempfile
import threading
from datetime import timedelta

import torch.distributed as dist

# port=0: the operating system picks a free port; store.port tells which
store = dist.TCPStore("127.0.0.1", 0, world_size=1, is_master=True,
                      timeout=timedelta(seconds=30))
print(f"host {store.host}, port chosen: {store.port > 0}, libuvBackend {store.libuvBackend}")

store.set("config/lr", "0.1")
store.set("config/batch", "32")
print("list_keys:", sorted(store.list_keys()))

# One clone per thread: each clone is a connection of its own to the same store
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

prefixed = dist.PrefixStore("job1", store)  # the same store, every key under "job1/"
prefixed.set("step", "7")
print("prefixed.get('step'):", prefixed.get("step"),
      "| underlying_store.get('job1/step'):", prefixed.underlying_store.get("job1/step"))

with tempfile.TemporaryDirectory() as folder:
    path = os.path.join(folder, "store")
    file_store = dist.FileStore(path, 1)
    print("FileStore.path is the file given:", file_store.path == path)
    for name, s in [("TCPStore", store), ("PrefixStore", prefixed), ("FileStore", file_store),
                    ("HashStore", dist.HashStore())]:
        print(f"{name}.has_extended_api(): {s.has_extended_api()}")
    file_store.append("log", "a;")  # no extended API, yet append works
    file_store.append("log", "b;")
    print("FileStore.append:", file_store.get("log"))
