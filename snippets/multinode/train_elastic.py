"""An elastic training loop: rank 0 saves a checkpoint after every step, and every rank starts
from the last one, so when torchrun starts the workers again (a machine joined, or one failed
and --max-restarts allowed a restart) the job goes on where it was, at the new world size.

Run: torchrun --standalone --nproc-per-node=2 train_elastic.py
Variants: gloo-cpu
"""
import datetime
import os
import sys
import tempfile
import time

import torch
import torch.distributed as dist
# Before init_process_group: imported later (as DDP and optimizers do), it keeps a reference
# to the default group, and destroy_process_group() cannot free it (torch 2.15).
import torch.distributed.nn  # noqa: F401
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP

STEPS = int(sys.argv[1]) if len(sys.argv) > 1 else 4
# One directory per job (torchrun's run id, --rdzv-id), on a file system every machine sees.
CHECKPOINT = os.path.join(tempfile.gettempdir(), f"job-{os.environ['TORCHELASTIC_RUN_ID']}.pt")

# Collectives of this group fail after 5 s without their peers (gloo's default: 30 minutes).
dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=5))
rank, world_size = dist.get_rank(), dist.get_world_size()
node, restart = os.environ["GROUP_RANK"], os.environ["TORCHELASTIC_RESTART_COUNT"]

torch.manual_seed(0)
model = DDP(nn.Linear(4, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
start = 0
if os.path.exists(CHECKPOINT):  # started again by torchrun: go on from the last step saved
    checkpoint = torch.load(CHECKPOINT)
    model.module.load_state_dict(checkpoint["model"])
    optimizer.load_state_dict(checkpoint["optimizer"])
    start = checkpoint["step"] + 1
# One write per line: the workers of a machine share torchrun's output.
print(f"rank {rank}: node {node}, restart {restart}, world size {world_size}, "
      f"from step {start}\n", end="", flush=True)

for step in range(start, STEPS):
    torch.manual_seed(1000 * step + rank)  # this step's batch on this rank
    x, y = torch.randn(8, 4), torch.randn(8, 1)
    loss = nn.functional.mse_loss(model(x), y)
    optimizer.zero_grad()
    try:
        loss.backward()  # DDP all-reduces the gradients across every machine
    except RuntimeError as exc:  # a peer is gone: leave, torchrun decides what comes next
        print(f"rank {rank}: step {step} failed: {type(exc).__name__}\n", end="", flush=True)
        os._exit(1)
    optimizer.step()
    if rank == 0:  # written aside, then renamed: a crash mid-save leaves the last checkpoint
        torch.save({"step": step, "model": model.module.state_dict(),
                    "optimizer": optimizer.state_dict()}, CHECKPOINT + ".tmp")
        os.replace(CHECKPOINT + ".tmp", CHECKPOINT)
    time.sleep(0.25)  # the rest of the step's computation

print(f"rank {rank}: node {node}, world size {world_size}, finished step {STEPS - 1}\n",
      end="", flush=True)
del model, optimizer  # free DDP before tearing down the process group it uses
dist.barrier()  # every rank is done with the checkpoint, and no rank tears down early
if rank == 0:
    os.remove(CHECKPOINT)  # the job is done: nothing to resume
dist.destroy_process_group()
