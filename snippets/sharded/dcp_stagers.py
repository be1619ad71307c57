"""Stagers for dcp.async_save: the stager makes the CPU copy ("staging") that the background
save writes. BlockingAsyncStager copies before async_save returns; DefaultStager with
use_async_staging=True copies in a thread of its own, and async_save then returns an
AsyncSaveResponse with two futures, one for the copy and one for the upload.

Run: torchrun --standalone --nproc-per-node=2 dcp_stagers.py
Variants: gloo-cpu
Timeout: 120
"""
import os
import shutil
import tempfile

import torch
import torch.distributed as dist
# Before init_process_group: imported later (as DTensor does), it keeps a reference
# to the default group, and destroy_process_group() cannot free it (torch 2.15).
import torch.distributed.nn  # noqa: F401
import torch.distributed.checkpoint as dcp
from torch.distributed.checkpoint.staging import (
    AsyncStager,
    BlockingAsyncStager,
    DefaultStager,
    StagingOptions,
)

dist.init_process_group("gloo")
rank = dist.get_rank()
# The background save runs collectives: give it a group of its own (see dcp_async_save.py).
ckpt_group = dist.new_group(backend="gloo")

holder = [tempfile.mkdtemp() if rank == 0 else None]
dist.broadcast_object_list(holder, src=0)
root = holder[0]
weights = {"w": torch.arange(6.0).reshape(2, 3)}
state = {"w": weights["w"].clone()}

# 1. BlockingAsyncStager: the copy is made before async_save returns.
stager = BlockingAsyncStager()
print(f"rank {rank}: BlockingAsyncStager is an AsyncStager: {isinstance(stager, AsyncStager)}")
future = dcp.async_save(state, checkpoint_id=os.path.join(root, "blocking"),
                        process_group=ckpt_group, async_stager=stager)
state["w"].zero_()  # safe at once: the save writes the staged copy, not `state`
print(f"rank {rank}: async_save returned a {type(future).__name__};"
      f" result() is the {type(future.result()).__name__}")
stager.close()  # a stager you pass is yours to close

# 2. DefaultStager: on CPU only the background copy is available (pinned memory, shared
# memory and non-blocking copies need an accelerator).
stager = DefaultStager(StagingOptions(use_pinned_memory=False, use_shared_memory=False,
                                      use_async_staging=True, use_non_blocking_copy=False))
state = {"w": weights["w"].clone()}
response = dcp.async_save(state, checkpoint_id=os.path.join(root, "default"),
                          process_group=ckpt_group, async_stager=stager)
print(f"rank {rank}: async_save returned an {type(response).__name__}")
response.staging_completion.result()  # the copy is made: `state` may change from here on
state["w"].zero_()
metadata = response.upload_completion.result()  # the files are written
print(f"rank {rank}: upload_completion.result() is the {type(metadata).__name__}")
stager.close()

# 3. Without async_stager, a FileSystemWriter is its own stager: it is a BlockingAsyncStager.
writer = dcp.FileSystemWriter(os.path.join(root, "writer"))
print(f"rank {rank}: FileSystemWriter is a BlockingAsyncStager:"
      f" {isinstance(writer, BlockingAsyncStager)}")
dcp.async_save(state, storage_writer=writer, process_group=ckpt_group).result()

# Both staged checkpoints hold the values from before the zeroing.
for name in ("blocking", "default"):
    loaded = {"w": torch.zeros(2, 3)}
    dcp.load(loaded, checkpoint_id=os.path.join(root, name))
    print(f"rank {rank}: {name}: {loaded['w'].tolist()}")
if rank == 0:
    print("checkpoints:", sorted(os.listdir(root)))

dist.barrier()  # every rank has finished loading before the directory is deleted
if rank == 0:
    shutil.rmtree(root)

del ckpt_group
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
