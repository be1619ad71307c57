"""format_utils.dcp_to_torch_save: turn a DCP checkpoint directory (one file per rank) into
one torch.save file of full tensors, which a single process loads for inference without
torch.distributed. torch_save_to_dcp converts the other way.

Run: torchrun --standalone --nproc-per-node=2 dcp_to_torch_save.py
Variants: gloo-cpu, nccl-cuda
Timeout: 120
"""
import gc
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
from torch.distributed.checkpoint.format_utils import dcp_to_torch_save
from torch.distributed.checkpoint.state_dict import get_model_state_dict
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard



backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
if os.environ.get("DEVICE", "cpu") == "cuda":
    device = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device)
else:
    device = torch.device("cpu")
dist.init_process_group(backend, device_id=device if device.type == "cuda" else None)
rank = dist.get_rank()
mesh = init_device_mesh(device.type, (dist.get_world_size(),))


def make_model():
    return nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))


torch.manual_seed(0)
model = fully_shard(make_model().to(device), mesh=mesh)
holder = [tempfile.mkdtemp() if rank == 0 else None]
dist.broadcast_object_list(holder, src=0)
ckpt = os.path.join(holder[0], "dcp")
dcp.save({"model": get_model_state_dict(model)}, checkpoint_id=ckpt)
print(f"rank {rank} saved its shards")

x = torch.arange(8.0, device=device).reshape(2, 4)
expected = model(x).detach().cpu()  # the sharded model's output, every rank computes it

if rank == 0:  # one process converts: it reads every rank's file, so it needs all the memory
    path = os.path.join(holder[0], "model.pt")
    dcp_to_torch_save(ckpt, path)
    sd = torch.load(path)  # plain tensors, under the top-level key used in dcp.save
    print("top-level keys:", list(sd))
    print("model keys:", {k: tuple(v.shape) for k, v in sd["model"].items()})
    plain = make_model()  # no process group, no sharding: e.g. an inference server
    print(plain.load_state_dict(sd["model"]))
    with torch.inference_mode():
        print("same output as the sharded model:", torch.allclose(plain(x.cpu()), expected))

dist.barrier()  # rank 0 has finished before the directory is deleted
if rank == 0:
    shutil.rmtree(holder[0])

del model, mesh  # the mesh, and every DTensor, hold its process group
gc.collect()  # FSDP's modules, hooks and graphs form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
