"""FileSystemWriter / FileSystemReader: the storage layer under dcp.save and dcp.load. Each rank
writes its own .distcp file; rank 0 writes .metadata, which read_metadata() returns as a
Metadata object: every key with its global size and the chunks the files hold. FsspecWriter /
FsspecReader do the same through fsspec.

Run: torchrun --standalone --nproc-per-node=2 dcp_storage.py
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
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import Shard, distribute_tensor

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
device_type = os.environ.get("DEVICE", "cpu")
device_id = None
if device_type == "cuda":
    device_id = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device_id)
dist.init_process_group(backend, device_id=device_id)
rank = dist.get_rank()
mesh = init_device_mesh(device_type, (2,))

torch.manual_seed(0)
weight = distribute_tensor(torch.randn(4, 3, device=device_type), mesh, [Shard(0)])
state = {"weight": weight,  # a DTensor: each rank holds 2 of its 4 rows
         "bias": torch.ones(3, device=device_type),  # a plain tensor: the same on every rank
         "step": 3}  # not a tensor: pickled into the files

holder = [tempfile.mkdtemp() if rank == 0 else None]
dist.broadcast_object_list(holder, src=0)
path = os.path.join(holder[0], "ckpt")

writer = dcp.FileSystemWriter(path)  # what checkpoint_id=path picks by itself
print(f"rank {rank}: writer is a StorageWriter: {isinstance(writer, dcp.StorageWriter)}")
dcp.save(state, storage_writer=writer)
if rank == 0:
    print("files:", sorted(os.listdir(path)))
    metadata = dcp.FileSystemReader(path).read_metadata()  # reads .metadata only
    print("metadata is a dcp.Metadata:", isinstance(metadata, dcp.Metadata))
    for key, entry in metadata.state_dict_metadata.items():
        if isinstance(entry, dcp.TensorStorageMetadata):
            chunks = [(list(c.offsets), list(c.sizes)) for c in entry.chunks]
            print(f"  {key}: {type(entry).__name__} size {list(entry.size)}"
                  f" chunks (offset, size) {chunks}")
        else:
            print(f"  {key}: {type(entry).__name__}")
    # storage_data: which file holds each chunk
    where = sorted((index.fqn, info.relative_path)
                   for index, info in metadata.storage_data.items())
    print("stored in:", where)

# Load into tensors of the same layout, through an explicit reader.
loaded = {"weight": distribute_tensor(torch.zeros(4, 3, device=device_type), mesh, [Shard(0)]),
          "bias": torch.zeros(3, device=device_type),
          "step": 0}
reader = dcp.FileSystemReader(path)
print(f"rank {rank}: reader is a StorageReader: {isinstance(reader, dcp.StorageReader)}")
dcp.load(loaded, storage_reader=reader)  # tensors filled in place, "step" replaced
print(f"rank {rank}: weight equal {torch.equal(loaded['weight'].to_local(), weight.to_local())},"
      f" bias {loaded['bias'].tolist()}, step {loaded['step']}")

# FsspecWriter / FsspecReader: the same files through fsspec (installed with torch), so that
# checkpoint paths can also be URLs of any file system fsspec knows (s3://, gs://, ...).
fs_path = os.path.join(holder[0], "ckpt_fsspec")
dcp.save(state, storage_writer=dcp.FsspecWriter(fs_path))
if rank == 0:
    print("fsspec files:", sorted(os.listdir(fs_path)))
again = {"weight": distribute_tensor(torch.zeros(4, 3, device=device_type), mesh, [Shard(0)]),
         "bias": torch.zeros(3, device=device_type),
         "step": 0}
dcp.load(again, storage_reader=dcp.FsspecReader(fs_path))
print(f"rank {rank}: through fsspec, weight equal"
      f" {torch.equal(again['weight'].to_local(), weight.to_local())}, step {again['step']}")

dist.barrier()  # every rank has finished loading before the directory is deleted
if rank == 0:
    shutil.rmtree(holder[0])

del weight, state, loaded, again, mesh  # DTensors and the mesh hold the process group
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
