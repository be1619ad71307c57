"""DCP checkpoints of pipeline stages: each stage saves under the whole model's names, so the
checkpoint of 2 stages loads into a job without pipelining (one stage holding the whole model);
a stage whose modules are renumbered collides with the other stage's names.

Run: torchrun --standalone --nproc-per-node=2 pp_dcp_reshape.py
Variants: gloo-cpu, nccl-cuda
Timeout: 120
"""
import gc
import os
import tempfile

import torch
import torch.distributed as dist
# Before init_process_group: imported later (as optimizers do), it keeps a reference
# to the default group, and destroy_process_group() cannot free it (torch 2.15).
import torch.distributed.nn  # noqa: F401
import torch.distributed.checkpoint as dcp
from torch import nn
from torch.distributed.checkpoint.state_dict import get_model_state_dict, set_model_state_dict
from torch.distributed.pipelining import PipelineStage, ScheduleGPipe

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
device = torch.device("cpu")
if os.environ.get("DEVICE", "cpu") == "cuda":
    device = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device)
dist.init_process_group(backend, device_id=device if device.type == "cuda" else None)
rank = dist.get_rank()


def make_model(seed):
    torch.manual_seed(seed)
    return nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 16), nn.ReLU(),
                         nn.Linear(16, 1)).to(device)


def saved_shapes(path):
    """Every tensor a checkpoint holds, by name, from its metadata."""
    metadata = dcp.FileSystemReader(path).read_metadata()
    return {name: list(meta.size) for name, meta in metadata.state_dict_metadata.items()}


# A directory every rank can reach: rank 0 creates it and sends its path to the others.
tmp = tempfile.TemporaryDirectory() if rank == 0 else None
holder = [tmp.name if rank == 0 else None]
dist.broadcast_object_list(holder, src=0)
ckpt, renumbered_ckpt = (os.path.join(holder[0], name) for name in ("pp2", "renumbered"))

# 1. Pipeline degree 2: rank 0 holds the first two modules, rank 1 the last three.
# A slice of nn.Sequential keeps the original names ("2", "3", "4").
model = make_model(0)
part = model[:2] if rank == 0 else model[2:]
stage = PipelineStage(part, stage_index=rank, num_stages=2, device=device)
schedule = ScheduleGPipe(stage, n_microbatches=2, loss_fn=nn.functional.mse_loss)
optimizer = torch.optim.SGD(part.parameters(), lr=0.1)
torch.manual_seed(1)
x = torch.randn(4, 8, device=device)
if stage.is_first:
    schedule.step(x)
else:
    schedule.step(target=x.sum(dim=1, keepdim=True))
optimizer.step()  # one training step: the saved values differ from the initial ones

saved = get_model_state_dict(part)
print(f"rank {rank} stage {rank} saves {sorted(saved)}")
dcp.save(saved, checkpoint_id=ckpt)  # collective: each rank writes its own stage
if rank == 0:
    print("checkpoint holds", saved_shapes(ckpt))

# 2. Pipeline degree 1: every rank holds the whole model (here 2 data-parallel replicas).
stages = [None, None]
dist.all_gather_object(stages, {k: v.cpu() for k, v in saved.items()})  # both stages' values
expected = {**stages[0], **stages[1]}


def equal_to_saved(module):
    values = module.state_dict()
    return sorted(values) == sorted(expected) and all(
        torch.equal(values[k].cpu(), expected[k]) for k in expected)


whole = make_model(2)  # other initial values: only the load can make them equal
before = equal_to_saved(whole)
state = get_model_state_dict(whole)
dcp.load(state, checkpoint_id=ckpt)  # collective; reads each name from the file that has it
set_model_state_dict(whole, state)
print(f"rank {rank} whole model ({len(state)} tensors) equal to the saved stages:"
      f" before loading {before}, after {equal_to_saved(whole)}")

# 3. The same stage renumbered from "0": its names collide with the first stage's.
renumbered = part if rank == 0 else nn.Sequential(*part)
names = sorted(get_model_state_dict(renumbered))
print(f"rank {rank} renumbered stage {rank} saves {names}")
dcp.save(get_model_state_dict(renumbered), checkpoint_id=renumbered_ckpt)
if rank == 0:
    print("renumbered checkpoint holds", saved_shapes(renumbered_ckpt))
try:  # the whole model asks for names the checkpoint holds with other shapes, or not at all
    dcp.load(get_model_state_dict(whole), checkpoint_id=renumbered_ckpt)
except dcp.CheckpointException as error:  # raised on every rank, with each rank's error
    print(f"rank {rank} loading the whole model: {str(error).splitlines()[-1]}")

dist.barrier()  # every rank has finished reading before the directory is deleted
if rank == 0:
    tmp.cleanup()
del schedule, stage, optimizer
gc.collect()
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
