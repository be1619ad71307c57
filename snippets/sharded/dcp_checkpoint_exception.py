"""CheckpointException: when dcp.save or dcp.load fails on any rank, every rank raises one
CheckpointException that carries each failed rank's original exception. It derives from
BaseException, not Exception: `except Exception` does not catch it.

Run: torchrun --standalone --nproc-per-node=2 dcp_checkpoint_exception.py
Variants: gloo-cpu, nccl-cuda
Timeout: 120
"""
import os
import shutil
import tempfile

import torch
import torch.distributed as dist
import torch.distributed.checkpoint as dcp

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
device_type = os.environ.get("DEVICE", "cpu")
device_id = None
if device_type == "cuda":
    device_id = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device_id)
dist.init_process_group(backend, device_id=device_id)
rank = dist.get_rank()

holder = [tempfile.mkdtemp() if rank == 0 else None]
dist.broadcast_object_list(holder, src=0)
not_a_dir = os.path.join(holder[0], "model.pt")
if rank == 0:
    open(not_a_dir, "w").close()  # a file where the checkpoint directory should go
dist.barrier()

print(f"rank {rank}: subclass of Exception: {issubclass(dcp.CheckpointException, Exception)}")
try:
    dcp.save({"w": torch.ones(2, device=device_type)}, checkpoint_id=not_a_dir)
except dcp.CheckpointException as error:  # `except Exception` would let it through
    print(f"rank {rank}: {type(error).__name__}: {str(error).splitlines()[0]}")
    for failed_rank, (exc, _trace) in error.failures.items():  # every rank's own error
        print(f"rank {rank}:   rank {failed_rank} failed with {type(exc).__name__}"
              f" (errno {exc.errno})")

dist.barrier()  # both ranks are past the save before the directory is deleted
if rank == 0:
    shutil.rmtree(holder[0])
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
