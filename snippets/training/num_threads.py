"""torch.set_num_threads, get_num_threads (within one operation) and set_num_interop_threads,
get_num_interop_threads (between operations).

Run: python num_threads.py
"""
import threading

import torch

# The defaults depend on the machine (cores, OMP_NUM_THREADS): not printed
torch.set_num_threads(2)  # threads one CPU operation (a matmul, a sum) may use
print("get_num_threads:", torch.get_num_threads())

# Inter-op threads: set once, before any inter-op work starts
torch.set_num_interop_threads(3)
print("get_num_interop_threads:", torch.get_num_interop_threads())
try:
    torch.set_num_interop_threads(4)  # a second call is refused
except RuntimeError as error:
    print(f"RuntimeError: {error}")
print("still:", torch.get_num_interop_threads())

# set_num_threads can be called again; it must be at least 1
torch.set_num_threads(1)
print("get_num_threads:", torch.get_num_threads())
seen = []  # the setting is per process: a new thread sees it too
worker = threading.Thread(target=lambda: seen.append(torch.get_num_threads()))
worker.start()
worker.join()
print("in another thread:", seen)
try:
    torch.set_num_threads(0)
except RuntimeError as error:
    print(f"RuntimeError: {error}")
