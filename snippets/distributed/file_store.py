"""FileStore: a store kept in a file that every process opening the same path shares.

Here two FileStore objects on one path stand in for two processes (on several machines the
file has to be on a shared file system). The same calls as a HashStore work, with a few
differences this example prints: no queue operations, an internal key counted by num_keys(),
and a timed-out wait() that raises a plain RuntimeError rather than a DistStoreError.

Run: python file_store.py
Variants: cpu
"""
import os
import tempfile
from datetime import timedelta

import torch.distributed as dist

with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "store")
    writer = dist.FileStore(path, 2)  # 2: the number of users; the last one deletes the file
    reader = dist.FileStore(path, 2)
    print(f"FileStore is a dist.Store: {isinstance(writer, dist.Store)}")

    writer.set("master_addr", "10.0.0.1")
    writer.add("arrived", 1)
    reader.add("arrived", 1)
    reader.wait(["master_addr"])  # returns at once: the key is already in the file
    print(f"reader.get('master_addr') -> {reader.get('master_addr')}")
    print(f"reader.add('arrived', 0) -> {reader.add('arrived', 0)}")  # both increments
    print(f"num_keys() -> {reader.num_keys()} (2 keys set, plus one the store keeps itself)")
    print(f"delete_key('nope') -> {reader.delete_key('nope')}")  # True even for a missing key

    try:
        writer.queue_push("jobs", "job 1")
    except NotImplementedError as exc:
        print(f"queue_push: {type(exc).__name__}: {exc}")

    try:
        reader.wait(["never_set"], timedelta(milliseconds=100))
    except RuntimeError as exc:
        print(f"wait(['never_set'], 100 ms): {type(exc).__name__}: {exc}; "
              f"a DistStoreError: {isinstance(exc, dist.DistStoreError)}")
    del writer, reader  # before the directory goes
