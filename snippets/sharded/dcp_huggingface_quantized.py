"""QuantizedHuggingFaceStorageReader: dcp.load of a block-quantized FP8 checkpoint (a weight in
float8_e4m3fn plus its per-block scale "<name>.weight_scale_inv", as DeepSeek-V3 publishes them),
dequantized to float32 while reading: each rank reads and scales only the rows of its shard.

Run: torchrun --standalone --nproc-per-node=2 dcp_huggingface_quantized.py
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
from safetensors.torch import save_file
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

holder = [tempfile.mkdtemp() if rank == 0 else None]
dist.broadcast_object_list(holder, src=0)
path = holder[0]

# The checkpoint, as a quantizing tool would write it: a 6 x 8 weight in blocks of 4 x 4, so
# a 2 x 2 grid of scales (the last block row has only 2 rows), and an unquantized bias.
torch.manual_seed(0)
weight_fp8 = torch.randn(6, 8).to(torch.float8_e4m3fn)
scale = torch.tensor([[1.0, 2.0], [0.5, 4.0]])  # multiplies its block of weight_fp8
tensors = {"proj.weight": weight_fp8, "proj.weight_scale_inv": scale, "proj.bias": torch.ones(6)}
if rank == 0:
    save_file(tensors, os.path.join(path, "model-00001-of-00001.safetensors"))
    # The reader pairs weight and scale through the index file's weight_map.
    with open(os.path.join(path, "model.safetensors.index.json"), "w") as f:
        json.dump({"weight_map": dict.fromkeys(tensors, "model-00001-of-00001.safetensors")}, f)
    with safe_open(os.path.join(path, "model-00001-of-00001.safetensors"), framework="pt") as f:
        print("in the file:", {k: (f.get_slice(k).get_dtype(), f.get_slice(k).get_shape())
                               for k in f.keys()})
dist.barrier()  # the files exist before any rank reads them

# What the reader should produce: every 4 x 4 block times its scale, in float32.
expected = weight_fp8.float() * scale.repeat_interleave(4, 0)[:6].repeat_interleave(4, 1)

# Load into float32 DTensors sharded on rows: rank 0 gets rows 0-2, rank 1 rows 3-5.
state = {"proj.weight": distribute_tensor(torch.zeros(6, 8, device=device_type), mesh,
                                          [Shard(0)]),
         "proj.bias": torch.zeros(6, device=device_type)}  # the scale is not asked for
reader = dcp.QuantizedHuggingFaceStorageReader(path, target_dtype=torch.float32, block_size=4)
dcp.load(state, storage_reader=reader)
local = state["proj.weight"].to_local().cpu()
rows = slice(3 * rank, 3 * rank + 3)
print(f"rank {rank}: weight shard {local.dtype} {list(local.shape)},"
      f" equals the dequantized rows: {torch.equal(local, expected[rows])}")
print(f"rank {rank}: row {3 * rank}, first 6 values: {local[0, :6].tolist()}")
print(f"rank {rank}: same row in the file: {weight_fp8[3 * rank, :6].float().tolist()}")
print(f"rank {rank}: bias {state['proj.bias'].tolist()}")

# HuggingFaceStorageReader reads the same file without scaling: the raw FP8 values.
raw = {"proj.weight": distribute_tensor(torch.zeros(6, 8, device=device_type), mesh, [Shard(0)])}
dcp.load(raw, storage_reader=dcp.HuggingFaceStorageReader(path))
print(f"rank {rank}: plain reader gives the unscaled values:"
      f" {torch.equal(raw['proj.weight'].to_local().cpu(), weight_fp8[rows].float())}")

dist.barrier()  # every rank has finished loading before the directory is deleted
if rank == 0:
    shutil.rmtree(path)

del state, raw, mesh  # DTensors and the mesh hold the process group
gc.collect()
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
