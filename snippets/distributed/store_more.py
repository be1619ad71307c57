"""More of the c10d stores: the port a TCPStore chose (port=0) and its host,
PrefixStore.underlying_store, FileStore.path, and has_extended_api.

Run: python store_more.py
Variants: cpu
"""
import os
import tempfile
from datetime import timedelta

import torch.distributed as dist

# port=0: the operating system picks a free port; store.port tells which
store = dist.TCPStore("127.0.0.1", 0, world_size=1, is_master=True,
                      timeout=timedelta(seconds=30))
print(f"host {store.host}, port chosen: {store.port > 0}")
client = dist.TCPStore(store.host, store.port, is_master=False)  # what another process does
client.set("lr", "0.1")
print("the client's key, read on the server:", store.get("lr"))

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
