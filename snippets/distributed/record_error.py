"""@record: a worker's uncaught exception, written where torchrun finds it for its failure
report.

torchrun gives each worker a file name in TORCHELASTIC_ERROR_FILE. A function decorated with
@record writes its uncaught exception there as JSON, and when the worker dies, torchrun's report
quotes it as the root cause. So that this example can end normally and show the file, it
points TORCHELASTIC_ERROR_FILE at a temporary file and catches rank 1's exception.

Run: torchrun --standalone --nproc-per-node=2 record_error.py
"""
import json
import os
import tempfile

import torch
import torch.distributed as dist
from torch.distributed.elastic.multiprocessing.errors import record

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
device_id = None
if os.environ.get("DEVICE", "cpu") == "cuda":
    device_id = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device_id)
dist.init_process_group(backend, device_id=device_id)
rank = dist.get_rank()


@record  # in a real script: on main(), and nothing catches the exception
def train(steps):
    for step in range(steps):
        if rank == 1 and step == 2:
            raise ValueError(f"loss is NaN at step {step}")
    return steps


saved = os.environ.get("TORCHELASTIC_ERROR_FILE")
with tempfile.TemporaryDirectory() as tmp:
    os.environ["TORCHELASTIC_ERROR_FILE"] = os.path.join(tmp, "error.json")
    try:
        print(f"train() ran {train(5)} steps; no error file: "
              f"{not os.path.exists(os.environ['TORCHELASTIC_ERROR_FILE'])}")
    except ValueError:
        with open(os.environ["TORCHELASTIC_ERROR_FILE"]) as f:
            error = json.load(f)["message"]
        print(f"train() raised; @record wrote {sorted(error)} to the error file:")
        print(f"  message: {error['message']}")
        print(f"  py_callstack ends with: {error['extraInfo']['py_callstack'].splitlines()[-1]}")
if saved is None:
    del os.environ["TORCHELASTIC_ERROR_FILE"]
else:
    os.environ["TORCHELASTIC_ERROR_FILE"] = saved

dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
