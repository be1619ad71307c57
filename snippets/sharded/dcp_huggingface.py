"""HuggingFaceStorageWriter / HuggingFaceStorageReader: dcp.save and dcp.load with Hugging Face
.safetensors files instead of .distcp files. With save_distributed=True every rank writes its
own shards; enable_consolidation=True then merges them into one model-00001-of-00001.safetensors
and a model.safetensors.index.json, the layout a plain safetensors reader loads.

Run: torchrun --standalone --nproc-per-node=2 dcp_huggingface.py
Variants: gloo-cpu, nccl-cuda
Timeout: 120
"""
import gc
import json
import os
import shutil
import tempfile

import torch
import torch.distributed as dist
# Before init_process_group: imported later (as DTensor does), it keeps a reference
# to the default group, and destroy_process_group() cannot free it (torch 2.15).
import torch.distributed.nn  # noqa: F401
import torch.distributed.checkpoint as dcp
from safetensors import safe_open
from safetensors.torch import load_file
from torch import nn
from torch.distributed.checkpoint.state_dict import get_model_state_dict
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
device_type = os.environ.get("DEVICE", "cpu")
device_id = None
if device_type == "cuda":
    device_id = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device_id)
dist.init_process_group(backend, device_id=device_id)
rank = dist.get_rank()
mesh = init_device_mesh(device_type, (2,))


def make_model(seed):
    torch.manual_seed(seed)
    model = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 2)).to(device_type)
    return fully_shard(model, mesh=mesh)  # parameters: DTensors sharded on dim 0


model = make_model(0)
state = get_model_state_dict(model)  # {"0.weight": DTensor, ...}
full = {k: v.full_tensor().cpu() for k, v in state.items()}  # to compare with below

holder = [tempfile.mkdtemp() if rank == 0 else None]
dist.broadcast_object_list(holder, src=0)
root = holder[0]


def listing(path):
    """Every file under path with its size in bytes."""
    return [(os.path.relpath(os.path.join(d, f), path), os.path.getsize(os.path.join(d, f)))
            for d, _, files in sorted(os.walk(path)) for f in sorted(files)]


# 1. save_distributed=True: each rank writes its own shards, nothing else.
sharded = os.path.join(root, "sharded_only")
dcp.save(state, storage_writer=dcp.HuggingFaceStorageWriter(sharded, save_distributed=True))
if rank == 0:
    print("save_distributed=True:", listing(sharded))
    with safe_open(os.path.join(sharded, "shard-00001-model-00001-of-00001.safetensors"),
                   framework="pt") as f:  # rank 0's file, as safetensors sees it
        for key in f.keys():
            t = f.get_slice(key)
            print(f"  {key}: {t.get_dtype()} {t.get_shape()}")
        info = json.loads(f.metadata()["DCP_SHARDING_INFO"])  # where each shard starts
        print("  metadata keys:", sorted(f.metadata()), "offsets:",
              {k: v["saved_offsets"] for k, v in info.items()})

# 2. enable_consolidation=True as well: rank 0 merges the shards into full tensors.
consolidated = os.path.join(root, "consolidated")
writer = dcp.HuggingFaceStorageWriter(consolidated, save_distributed=True,
                                      enable_consolidation=True)
dcp.save(state, storage_writer=writer)
if rank == 0:
    print("enable_consolidation=True:", listing(consolidated))
    with open(os.path.join(consolidated, "model.safetensors.index.json")) as f:
        index = json.load(f)
    print("index:", index)
    with safe_open(os.path.join(consolidated, "model-00001-of-00001.safetensors"),
                   framework="pt") as f:
        print("consolidated file metadata:", f.metadata())
    plain = load_file(os.path.join(consolidated, "model-00001-of-00001.safetensors"))
    print("load_file:", {k: list(v.shape) for k, v in plain.items()})
    print("load_file equals the full tensors:",
          all(torch.equal(plain[k], full[k]) for k in full))

# 3. Load back into a differently initialized sharded model, from either directory.
for path in (sharded, consolidated):
    other = make_model(1)
    target = get_model_state_dict(other)
    before = all(torch.equal(target[k].full_tensor().cpu(), full[k]) for k in full)
    dcp.load(target, storage_reader=dcp.HuggingFaceStorageReader(path))  # in place
    after = all(torch.equal(target[k].full_tensor().cpu(), full[k]) for k in full)
    print(f"rank {rank}: {os.path.basename(path)}: equal before {before}, after load {after}")

dist.barrier()  # every rank has finished loading before the directory is deleted
if rank == 0:
    shutil.rmtree(root)

del model, other, state, target, mesh  # DTensors and the mesh hold the process group
gc.collect()  # FSDP's modules, hooks and graphs form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
