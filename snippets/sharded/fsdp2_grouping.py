"""fully_shard([a, b]): several modules in one group, gathered by one all-gather.

A final norm and an output head, sharded separately, are two groups: two all-gathers in
forward and two reduce-scatters in backward. fully_shard([norm, head]) makes them one
group. CommDebugMode counts the collectives of each version; unshard() on one module of
a group gathers the whole group. The gradients are the same either way.

Run: torchrun --standalone --nproc-per-node=2 fsdp2_grouping.py
Variants: gloo-cpu, nccl-cuda
"""
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
from torch.distributed.tensor.debug import CommDebugMode

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
device_type = os.environ.get("DEVICE", "cpu")
device_id = None
if device_type == "cuda":
    device_id = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device_id)
dist.init_process_group(backend, device_id=device_id)
rank = dist.get_rank()
mesh = init_device_mesh(device_type, (2,))


def counts(comm):
    return {str(op): n for op, n in comm.get_comm_counts().items()}


torch.manual_seed(1 + rank)  # each rank its own batch
x = torch.randn(4, 4, device=device_type)
grads = {}
for grouped in (False, True):
    torch.manual_seed(0)  # the same model both times
    model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.LayerNorm(8), nn.Linear(8, 2))
    model.to(device_type)
    fully_shard(model[0], mesh=mesh)  # the block
    if grouped:
        fully_shard([model[2], model[3]], mesh=mesh)  # norm and head: one group
    else:
        fully_shard(model[2], mesh=mesh)
        fully_shard(model[3], mesh=mesh)
    fully_shard(model, mesh=mesh)  # the root: nothing left, it drives the hooks
    label = "grouped " if grouped else "separate"

    out = model(x)
    with CommDebugMode() as backward:
        out.sum().backward()
    # The forward is counted on its own, without autograd: in a forward with autograd
    # on, CommDebugMode's module hooks make the outputs views, which FSDP2 warns about.
    with torch.no_grad(), CommDebugMode() as forward:
        model(x)
    print(f"rank {rank} {label} forward: {counts(forward)}")
    print(f"rank {rank} {label} backward: {counts(backward)}")
    grads[grouped] = [p.grad.full_tensor() for p in model.parameters()]

    model[2].unshard()  # gathers model[2]'s group
    kind = type(model[3].weight).__name__  # Parameter: gathered; DTensor: still sharded
    print(f"rank {rank} {label} after model[2].unshard(), model[3].weight is a {kind}")
    model[2].reshard()

same = all(torch.equal(a, b) for a, b in zip(grads[False], grads[True]))
print(f"rank {rank} same gradients both ways: {same}")

del model, out, grads, mesh
gc.collect()  # FSDP's modules, hooks and graphs form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
