"""CheckpointableTensor: a plain local tensor that carries four attributes (global_shape,
global_offsets, local_offsets, local_sizes) is saved by DCP as shards of one global tensor,
without being a DTensor, and loads on another split or as the full tensor.

Run: torchrun --standalone --nproc-per-node=2 dcp_checkpointable_tensor.py
Variants: gloo-cpu, nccl-cuda
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

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
device_type = os.environ.get("DEVICE", "cpu")
device_id = None
if device_type == "cuda":
    device_id = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device_id)
dist.init_process_group(backend, device_id=device_id)
rank = dist.get_rank()

full = torch.arange(24.0, device=device_type).reshape(4, 6)  # the global tensor, never saved


def shard_of(rows, buffer_rows):
    """A plain tensor of buffer_rows rows holding rows[0]:rows[1] of the global tensor on top."""
    local = torch.zeros(buffer_rows, 6, device=device_type)
    local[:rows[1] - rows[0]] = full[rows[0]:rows[1]]
    local.global_shape = tuple(full.shape)
    local.global_offsets = ((rows[0], 0),)  # one shard here: where it starts globally
    local.local_offsets = ((0, 0),)  # where it starts inside `local`
    local.local_sizes = ((rows[1] - rows[0], 6),)  # its size (the rest of `local` is padding)
    return local


# Uneven split: rank 0 holds rows 0-2, rank 1 row 3 in a buffer padded to 3 rows.
local = shard_of((0, 3) if rank == 0 else (3, 4), buffer_rows=3)
print(f"rank {rank}: a plain {type(local).__name__} of shape {list(local.shape)},"
      f" a CheckpointableTensor: {isinstance(local, dcp.CheckpointableTensor)}")
incomplete = torch.zeros(3, 6)
incomplete.global_shape = (4, 6)  # without the three other attributes: an ordinary tensor
print(f"rank {rank}: with global_shape only: {isinstance(incomplete, dcp.CheckpointableTensor)}")

holder = [tempfile.mkdtemp() if rank == 0 else None]
dist.broadcast_object_list(holder, src=0)
path = holder[0]
dcp.save({"table": local}, checkpoint_id=path)
if rank == 0:
    entry = dcp.FileSystemReader(path).read_metadata().state_dict_metadata["table"]
    chunks = [(list(c.offsets), list(c.sizes)) for c in entry.chunks]
    print(f"saved: size {list(entry.size)}, chunks (offset, size) {chunks}")

# Load on another split: two rows each, no padding.
even = torch.zeros(2, 6, device=device_type)
even.global_shape = (4, 6)
even.global_offsets = ((2 * rank, 0),)
even.local_offsets = ((0, 0),)
even.local_sizes = ((2, 6),)
dcp.load({"table": even}, checkpoint_id=path)
print(f"rank {rank}: rows {2 * rank}-{2 * rank + 1} equal: "
      f"{torch.equal(even, full[2 * rank:2 * rank + 2])}")

# Load the whole tensor: a plain tensor of the global shape, without the attributes.
whole = torch.zeros(4, 6, device=device_type)
dcp.load({"table": whole}, checkpoint_id=path)
print(f"rank {rank}: full tensor equal: {torch.equal(whole, full)}")

dist.barrier()  # every rank has finished loading before the directory is deleted
if rank == 0:
    shutil.rmtree(path)

dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
