"""dist.Work: what an async_op=True collective returns, and what it reports.

wait() blocks until the operation is done (and returns True); is_completed() asks without
blocking; get_future() gives a torch.futures.Future, whose then() chains a callback that runs
once the result is there. exception() still exists but is deprecated: it writes a warning to
stderr, which this example captures and prints.

Run: torchrun --standalone --nproc-per-node=2 work_handle.py
"""
import os
import re
import sys
import tempfile

import torch
import torch.distributed as dist

dist.init_process_group("gloo")
rank = dist.get_rank()


def stderr_of(call):
    """Run call(); return its result and what it wrote to the process's stderr (C++ included)."""
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as capture:
        os.dup2(capture.fileno(), 2)
        try:
            result = call()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        capture.seek(0)
        return result, capture.read().decode()


tensor = torch.tensor([rank + 1.0, 10.0 * (rank + 1)])
print(f"before: {tensor.tolist()}")
work = dist.all_reduce(tensor, async_op=True)
print(f"a dist.Work: {isinstance(work, dist.Work)}")
print(f"wait() -> {work.wait()}, is_completed() -> {work.is_completed()}, after: "
      f"{tensor.tolist()}")

work = dist.all_reduce(torch.tensor([rank + 1.0]), async_op=True)
doubled = work.get_future().then(lambda fut: fut.value()[0] * 2)  # runs when the sum is ready
print(f"future.then(...).wait() -> {doubled.wait().tolist()}")  # value() returns the output list
print(f"the Work's own future: value() -> {[t.tolist() for t in work.get_future().value()]}")

error, log = stderr_of(work.exception)
print(f"exception() -> {error}")  # None: the operation succeeded
print(f"  and on stderr: {re.sub(r'^.*Warning: ', '', log.strip())}")

dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
