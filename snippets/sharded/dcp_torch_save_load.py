"""torch_save_to_dcp / dcp_to_torch_save convert between one torch.save file and a DCP
directory. BroadcastingTorchSaveReader with DynamicMetaLoadPlanner skips the conversion: rank 0
reads the torch.save file and broadcasts each tensor into every rank's full state dict, and
set_model_state_dict keeps each rank's own shard.

Run: torchrun --standalone --nproc-per-node=2 dcp_torch_save_load.py
Variants: gloo-cpu
Timeout: 120
"""
import gc
import os
import shutil
import tempfile
import warnings

import torch
import torch.distributed as dist
# Before init_process_group: imported later (as optimizers do), it keeps a reference
# to the default group, and destroy_process_group() cannot free it (torch 2.15).
import torch.distributed.nn  # noqa: F401
import torch.distributed.checkpoint as dcp
from torch import nn
from torch.distributed.checkpoint.format_utils import (
    BroadcastingTorchSaveReader,
    DynamicMetaLoadPlanner,
    dcp_to_torch_save,
    torch_save_to_dcp,
)
from torch.distributed.checkpoint.state_dict import (
    StateDictOptions,
    get_model_state_dict,
    set_model_state_dict,
)
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard

dist.init_process_group("gloo")
rank = dist.get_rank()
mesh = init_device_mesh("cpu", (dist.get_world_size(),))


def make_model():
    return nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))


torch.manual_seed(0)
trained = make_model().state_dict()  # the same on every rank: the seed is the same
holder = [tempfile.mkdtemp() if rank == 0 else None]
dist.broadcast_object_list(holder, src=0)
pt_file = os.path.join(holder[0], "model.pt")

if rank == 0:  # conversions run in one process, without a process group
    torch.save(trained, pt_file)
    torch_save_to_dcp(pt_file, os.path.join(holder[0], "dcp"))
    print("DCP files:", sorted(os.listdir(os.path.join(holder[0], "dcp"))))
    dcp_to_torch_save(os.path.join(holder[0], "dcp"), os.path.join(holder[0], "back.pt"))
    back = torch.load(os.path.join(holder[0], "back.pt"))
    print("round trip keys:", list(back))
    print("round trip equal:", {k: torch.equal(back[k], trained[k]) for k in trained})
dist.barrier()  # the torch.save file exists before the ranks read it

# Load the torch.save file straight into a sharded model: a collective, on every rank.
torch.manual_seed(1)  # different weights, so that only the load can make them equal
model = fully_shard(make_model(), mesh=mesh)
# Full (plain) tensors on every rank: the reader broadcasts whole tensors into them, which
# DTensor shards cannot take.
full = StateDictOptions(full_state_dict=True)
state = get_model_state_dict(model, options=full)
with warnings.catch_warnings(record=True) as caught:  # torch 2.15 warns inside the reader
    warnings.simplefilter("always")
    dcp.load(state, checkpoint_id=pt_file,
             storage_reader=BroadcastingTorchSaveReader(), planner=DynamicMetaLoadPlanner())
for text in sorted({f"{w.category.__name__}: {str(w.message).split('. ')[0]}" for w in caught}):
    print(f"rank {rank}: {text}")
set_model_state_dict(model, state, options=full)  # each rank keeps its own shard
local = model[0].weight.to_local()
print(f"rank {rank}: 0.weight local shard {tuple(local.shape)},"
      f" equal to rows {4 * rank}-{4 * rank + 3} of the file:"
      f" {torch.equal(local, trained['0.weight'][4 * rank:4 * rank + 4])}")
print(f"rank {rank}: every parameter equal:",
      all(torch.equal(v.full_tensor(), trained[k])
          for k, v in get_model_state_dict(model).items()))

dist.barrier()  # every rank has finished loading before the directory is deleted
if rank == 0:
    shutil.rmtree(holder[0])

# Drop everything that holds a DTensor (and so the mesh and its process group).
del model, state, local, mesh
gc.collect()  # FSDP's modules, hooks and graphs form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
