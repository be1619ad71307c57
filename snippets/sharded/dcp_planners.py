"""DefaultSavePlanner / DefaultLoadPlanner: the planners dcp.save and dcp.load use when none is
given. A subclass can change the plan: here one drops the "module." prefix that DDP adds to
every key, on save, and another drops it from the state dict being filled, on load.

Run: torchrun --standalone --nproc-per-node=2 dcp_planners.py
Variants: gloo-cpu
Timeout: 120
"""
import os
import shutil
import tempfile

import torch
import torch.distributed as dist
# Before init_process_group: imported later (as optimizers do), it keeps a reference
# to the default group, and destroy_process_group() cannot free it (torch 2.15).
import torch.distributed.nn  # noqa: F401
import torch.distributed.checkpoint as dcp
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()


def strip(state_dict):
    return {key.removeprefix("module."): value for key, value in state_dict.items()}


class StripPrefixSavePlanner(dcp.DefaultSavePlanner):
    """Saves every "module.x" key as "x"."""

    def set_up_planner(self, state_dict, storage_meta=None, is_coordinator=False):
        super().set_up_planner(strip(state_dict), storage_meta, is_coordinator)


class StripPrefixLoadPlanner(dcp.DefaultLoadPlanner):
    """Fills every "module.x" key of the state dict from the checkpoint's "x"."""

    def set_up_planner(self, state_dict, metadata=None, is_coordinator=False):
        # The renamed dict holds the same tensors, so loading into it fills `state_dict`.
        super().set_up_planner(strip(state_dict), metadata, is_coordinator)


print(f"rank {rank}: a SavePlanner: {isinstance(StripPrefixSavePlanner(), dcp.SavePlanner)},"
      f" a LoadPlanner: {isinstance(StripPrefixLoadPlanner(), dcp.LoadPlanner)}")

torch.manual_seed(0)
ddp = DDP(nn.Sequential(nn.Linear(4, 2)))
print(f"rank {rank}: DDP keys {list(ddp.state_dict())}")

holder = [tempfile.mkdtemp() if rank == 0 else None]
dist.broadcast_object_list(holder, src=0)
plain_ckpt = os.path.join(holder[0], "default")
stripped_ckpt = os.path.join(holder[0], "stripped")
dcp.save(ddp.state_dict(), checkpoint_id=plain_ckpt, planner=dcp.DefaultSavePlanner())
dcp.save(ddp.state_dict(), checkpoint_id=stripped_ckpt, planner=StripPrefixSavePlanner())
if rank == 0:
    for path in (plain_ckpt, stripped_ckpt):
        keys = dcp.FileSystemReader(path).read_metadata().state_dict_metadata
        print(f"{os.path.basename(path)} checkpoint keys: {sorted(keys)}")

# A plain model (no DDP) loads the stripped checkpoint with the default planner.
plain = nn.Sequential(nn.Linear(4, 2))
state = plain.state_dict()
dcp.load(state, checkpoint_id=stripped_ckpt, planner=dcp.DefaultLoadPlanner())
plain.load_state_dict(state)
print(f"rank {rank}: plain model keys {list(state)},"
      f" equal {torch.equal(plain[0].weight, ddp.module[0].weight)}")

# A DDP model loads the same checkpoint: its "module." keys are stripped on load.
torch.manual_seed(1)
ddp2 = DDP(nn.Sequential(nn.Linear(4, 2)))
state2 = ddp2.state_dict()
dcp.load(state2, checkpoint_id=stripped_ckpt, planner=StripPrefixLoadPlanner())
print(f"rank {rank}: DDP model keys {list(state2)},"
      f" equal {torch.equal(ddp2.module[0].weight, ddp.module[0].weight)}")

dist.barrier()  # every rank has finished loading before the directory is deleted
if rank == 0:
    shutil.rmtree(holder[0])

del ddp, ddp2  # a DDP module holds the process group
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
