"""Store operations on a HashStore: the key-value calls every c10d store shares.

A HashStore lives in one process (threads share it), so this example needs no peers. Values go
in as str or bytes and come out as bytes. TCPStore, FileStore and PrefixStore answer the same
calls; the rendezvous of init_process_group uses them to exchange addresses.

Run: python store_ops.py
Variants: cpu
"""
from datetime import timedelta

import torch.distributed as dist

store = dist.HashStore()
print(f"HashStore is a dist.Store: {isinstance(store, dist.Store)}, timeout: {store.timeout}")

store.set("lr", "0.1")
print(f"get('lr') -> {store.get('lr')}")  # always bytes
print(f"add('step', 5) -> {store.add('step', 5)}, add('step', 2) -> {store.add('step', 2)}")
print(f"get('step') -> {store.get('step')}")  # a counter is stored as its decimal text

# compare_set(key, expected, desired): swaps if the value is `expected`; returns the value after
print(f"compare_set('lr', '0.1', '0.2') -> {store.compare_set('lr', '0.1', '0.2')}")
print(f"compare_set('lr', '0.1', '0.3') -> {store.compare_set('lr', '0.1', '0.3')}")  # no swap
# '' : key absent
print(f"compare_set('leader', '', 'rank 3') -> {store.compare_set('leader', '', 'rank 3')}")

store.multi_set(["a", "b"], ["1", "2"])
print(f"multi_get(['a', 'b']) -> {store.multi_get(['a', 'b'])}")
store.append("log", "start;")  # creates the key ...
store.append("log", "step 1;")  # ... then appends to its value
print(f"after two append(): get('log') -> {store.get('log')}")
print(f"check(['a', 'nope']) -> {store.check(['a', 'nope'])}")  # True only if every key exists
print(f"num_keys() -> {store.num_keys()}")
print(f"delete_key('a') -> {store.delete_key('a')}, again -> {store.delete_key('a')}, "
      f"num_keys() -> {store.num_keys()}")

# queue operations: a FIFO list per key
store.queue_push("jobs", "job 1")
store.queue_push("jobs", b"job 2")
print(f"queue_len('jobs') -> {store.queue_len('jobs')}")
print(f"queue_pop('jobs') -> {store.queue_pop('jobs')}, then {store.queue_pop('jobs')}")
try:
    store.queue_pop("jobs", block=False)  # empty: raise instead of waiting
except dist.QueueEmptyError as exc:
    print(f"queue_pop(block=False) on an empty queue: {type(exc).__name__}: {exc}")

# wait() blocks until every key exists; with a timeout it gives up
try:
    store.wait(["never_set"], timedelta(milliseconds=100))
except dist.DistStoreError as exc:
    print(f"wait(['never_set'], 100 ms): {type(exc).__name__}: {exc}")
store.set_timeout(timedelta(milliseconds=100))  # get() of a missing key waits this long
try:
    store.get("never_set")
except dist.DistStoreError as exc:
    print(f"get('never_set') after set_timeout(100 ms): {type(exc).__name__}: {exc}")
print("QueueEmptyError is a DistStoreError: "
      f"{issubclass(dist.QueueEmptyError, dist.DistStoreError)}")
