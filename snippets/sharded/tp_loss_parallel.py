"""loss_parallel: cross-entropy on logits sharded over the vocabulary, never gathered.

Run: torchrun --standalone --nproc-per-node=2 tp_loss_parallel.py
Variants: gloo-cpu, nccl-cuda
"""
import copy
import gc
import os

import torch
import torch.distributed as dist
# Before init_process_group: imported later (as DTensor does), it keeps a reference
# to the default group, and destroy_process_group() cannot free it (torch 2.15).
import torch.distributed.nn  # noqa: F401
from torch import nn
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import Shard
from torch.distributed.tensor.parallel import ColwiseParallel, loss_parallel, parallelize_module

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
device_type = os.environ.get("DEVICE", "cpu")
device_id = None
if device_type == "cuda":
    device_id = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device_id)
dist.init_process_group(backend, device_id=device_id)
rank = dist.get_rank()

mesh = init_device_mesh(device_type, (2,))
torch.manual_seed(0)  # the same full weights on every rank
model = nn.Sequential(nn.Embedding(10, 4), nn.Linear(4, 10)).to(device_type)  # vocabulary of 10
reference = copy.deepcopy(model)
parallelize_module(model, mesh, {
    # the output head: each rank computes the logits of 5 of the 10 tokens,
    # and keeps them as a DTensor sharded on the last (vocabulary) dimension
    "1": ColwiseParallel(output_layouts=Shard(-1), use_local_output=False),
})

torch.manual_seed(1)
tokens = torch.randint(0, 10, (2, 3), device=device_type)  # same batch on every rank
labels = torch.randint(0, 10, (2, 3), device=device_type)
logits = model(tokens)
print(f"rank {rank} logits: {logits.placements}, global {list(logits.shape)},"
      f" local {list(logits.to_local().shape)}")
with loss_parallel():  # the forward and the backward both inside
    loss = nn.functional.cross_entropy(logits.flatten(0, 1), labels.flatten())
    loss.backward()
print(f"rank {rank} loss: {type(loss).__name__} {loss.placements}"
      f" {loss.full_tensor().item():.6f}")

expected = nn.functional.cross_entropy(reference(tokens).flatten(0, 1), labels.flatten())
expected.backward()
print(f"rank {rank} unsharded loss: {expected.item():.6f}")
grad = model[1].weight.grad.full_tensor()
print(f"rank {rank} head gradient equals the reference:"
      f" {torch.allclose(grad, reference[1].weight.grad, atol=1e-6)}")

del model, logits, loss, grad, mesh
gc.collect()  # modules, hooks and graphs can form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
