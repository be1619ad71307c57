"""dist.barrier waits for every rank; dist.monitored_barrier also names the ranks that never
came.

Run: torchrun --standalone --nproc-per-node=2 barrier.py
"""
import contextlib
import os
import time
from datetime import timedelta

import torch
import torch.distributed as dist

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
if os.environ.get("DEVICE", "cpu") == "cuda":
    device = torch.device("cuda", int(os.environ["LOCAL_RANK"]) % torch.cuda.device_count())
    torch.cuda.set_device(device)
else:
    device = torch.device("cpu")
dist.init_process_group(backend, device_id=device if device.type == "cuda" else None)
rank = dist.get_rank()

if rank == 1:
    time.sleep(0.2)  # rank 1 is late; rank 0 waits for it in the barrier
dist.barrier()
print("passed the barrier: every rank has reached it")

dist.monitored_barrier(timeout=timedelta(seconds=5))  # gloo only; all ranks arrive: no error
print("passed the monitored barrier")



@contextlib.contextmanager
def quiet_stderr():
    """The C++ side also logs the failure to stderr; keep this example's stderr clean."""
    saved = os.dup(2)
    with open(os.devnull, "w") as null:
        os.dup2(null.fileno(), 2)
    try:
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


# A rank that never arrives: rank 0 gets an error naming it instead of hanging forever.
group = dist.new_group(backend="gloo")  # a group of its own, left unusable afterwards
if rank == 0:
    try:
        with quiet_stderr():
            dist.monitored_barrier(group=group, timeout=timedelta(seconds=0.5))
    except RuntimeError as exc:
        print(f"RuntimeError: {str(exc).splitlines()[0]}")
else:
    print("skipped the monitored barrier")
dist.barrier()  # the default group still works

del group  # a group handle kept alive would outlive destroy_process_group()
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
