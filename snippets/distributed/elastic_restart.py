"""Elastic restarts: with --max-restarts=N, torchrun restarts every worker after a failure.

Each attempt reads TORCHELASTIC_RESTART_COUNT and resumes from the last checkpoint. To show it,
rank 1 fails on purpose after step 1 whenever the launcher still allows a restart. Run as below
(no restarts allowed) it simply trains all four steps; with --max-restarts=1 the first attempt
fails and the second resumes at step 2.

Every attempt meets in the launcher's store at the same MASTER_PORT, where the previous attempt's
keys are still present; a store prefix per attempt keeps a new group from reading old addresses.

Run: torchrun --standalone --nproc-per-node=2 elastic_restart.py
"""
import os
import sys
import tempfile

import torch
import torch.distributed as dist

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
attempt = int(os.environ["TORCHELASTIC_RESTART_COUNT"])
allowed = int(os.environ["TORCHELASTIC_MAX_RESTARTS"])
rank, world_size = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
launcher_store = dist.TCPStore(os.environ["MASTER_ADDR"], int(os.environ["MASTER_PORT"]),
                               is_master=False)
store = dist.PrefixStore(f"attempt_{attempt}", launcher_store)  # fresh keys for each attempt
dist.init_process_group(backend, store=store, rank=rank, world_size=world_size)
# One checkpoint per run (the run id stays the same across restarts); not printed.
checkpoint = os.path.join(tempfile.gettempdir(), f"elastic-{os.environ['TORCHELASTIC_RUN_ID']}.txt")

start = 0
if os.path.exists(checkpoint):
    with open(checkpoint) as f:
        start = int(f.read()) + 1
print(f"attempt {attempt} (restarts allowed: {allowed}): starting at step {start}")

for step in range(start, 4):
    total = torch.tensor([float(step)])
    dist.all_reduce(total)  # stands for a training step
    if rank == 0:
        with open(checkpoint, "w") as f:
            f.write(str(step))
    dist.barrier()  # the checkpoint of this step is written before anyone goes on
    print(f"step {step} done")
    if rank == 1 and step == 1 and attempt < allowed:
        print("rank 1 fails on purpose")
        sys.exit(1)  # torchrun stops the other workers and starts a new attempt

dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
if rank == 0:
    os.remove(checkpoint)
print("finished")
