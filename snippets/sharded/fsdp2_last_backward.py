"""HSDP gradient accumulation: set_is_last_backward, set_requires_all_reduce,
set_reshard_after_backward.

Run: torchrun --standalone --nproc-per-node=4 fsdp2_last_backward.py
Variants: gloo-cpu, nccl-cuda
"""
import copy
import gc
import os

import torch
import torch.distributed as dist
# Before init_process_group: imported later (as optimizers do), it keeps a reference
# to the default group, and destroy_process_group() cannot free it (torch 2.15).
import torch.distributed.nn  # noqa: F401
from torch import nn
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard
from torch.distributed.tensor import DTensor

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
device_type = os.environ.get("DEVICE", "cpu")
device_id = None
if device_type == "cuda":
    device_id = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device_id)
dist.init_process_group(backend, device_id=device_id)
rank = dist.get_rank()

mesh = init_device_mesh(device_type, (2, 2), mesh_dim_names=("replicate", "shard"))
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 2)).to(device_type)
reference = copy.deepcopy(model)  # unsharded, sees every micro-batch of every rank
fully_shard(model[0], mesh=mesh)
fully_shard(model[2], mesh=mesh)
fully_shard(model, mesh=mesh)

torch.manual_seed(1)  # 3 micro-batches of 2 rows per rank
x = torch.randn(3, 4, 2, 4, device=device_type)  # [micro-batch, rank, rows, features]
y = torch.randn(3, 4, 2, 2, device=device_type)
for micro in range(3):
    last = micro == 2
    model.set_is_last_backward(last)
    model.set_requires_all_reduce(last)  # reduce-scatter every time, all-reduce at the end
    model.set_reshard_after_backward(last)  # keep the gathered weights for the next forward
    loss = nn.functional.mse_loss(model(x[micro, rank]), y[micro, rank]) / 3
    loss.backward()
    weight = model[0].weight
    kind = "DTensor" if isinstance(weight, DTensor) else type(weight).__name__
    print(f"rank {rank} micro-batch {micro}: 0.weight {kind} {list(weight.shape)},"
          f" .grad {'set' if weight.grad is not None else 'None'}")
    for r in range(4):
        ref_loss = nn.functional.mse_loss(reference(x[micro, r]), y[micro, r]) / 12
        ref_loss.backward()
same = all(torch.allclose(p.grad.full_tensor(), r.grad, atol=1e-6)
           for p, r in zip(model.parameters(), reference.parameters()))
print(f"rank {rank} accumulated gradients equal the single-process ones: {same}")

# set_gradient_divide_factor: the reduction divides by this instead of the world size
for module in (model[0], model[2]):  # not recursive: each FSDP module that has parameters
    module.set_gradient_divide_factor(1.0)  # 1.0: a sum over the 4 ranks
model.zero_grad()
reference.zero_grad()
try:
    nn.functional.mse_loss(model(x[0, rank]), y[0, rank]).backward()
except RuntimeError as exc:  # printed on purpose: gloo has no PREMUL_SUM reduction
    print(f"rank {rank} divide factor 1.0: RuntimeError: {exc}")
    model.reset_iter_state()  # the failed backward left FSDP mid-iteration
for module in (model[0], model[2]):
    module.set_force_sum_reduction_for_comms(True)  # SUM collectives, then a division
model.zero_grad()
nn.functional.mse_loss(model(x[0, rank]), y[0, rank]).backward()
for r in range(4):
    nn.functional.mse_loss(reference(x[0, r]), y[0, r]).backward()  # the sum over 4 ranks
same = all(torch.allclose(p.grad.full_tensor(), r.grad, atol=1e-6)
           for p, r in zip(model.parameters(), reference.parameters()))
print(f"rank {rank} divide factor 1.0 with SUM collectives: gradients equal the"
      f" reference's sum: {same}")

del model, module, loss, weight, mesh
gc.collect()  # FSDP's modules, hooks and graphs form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
