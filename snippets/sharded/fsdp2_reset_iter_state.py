"""FSDPModule.reset_iter_state(): go on training after an exception in backward.

An exception that aborts forward or backward leaves FSDP's per-iteration state half
done. Here a gradient check raises in the middle of backward, on every rank, on two
identical models. The one that goes on without a reset still holds the failed step's
gradients, and after the next step its layers stay unsharded; the one whose root calls
reset_iter_state() first matches a single-process reference that skipped the bad step.

Run: torchrun --standalone --nproc-per-node=2 fsdp2_reset_iter_state.py
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

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
device_type = os.environ.get("DEVICE", "cpu")
device_id = None
if device_type == "cuda":
    device_id = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device_id)
dist.init_process_group(backend, device_id=device_id)
rank = dist.get_rank()
mesh = init_device_mesh(device_type, (2,))
LAYERS = (0, 2, 4)


def build():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 6), nn.ReLU(),
                         nn.Linear(6, 2)).to(device_type)


def check_gradient(module, grad_input, grad_output):
    raise FloatingPointError("gradient check failed")  # e.g. a NaN found


def kinds(model):
    return [type(model[i].weight).__name__ for i in LAYERS]


torch.manual_seed(1)
batches = torch.randn(2, 4, 4, device=device_type)  # two steps of 4 rows each
mine = slice(2 * rank, 2 * rank + 2)  # this rank's half of each batch
reference = build()  # one process, whole batches, skips the failed step
ref_optimizer = torch.optim.SGD(reference.parameters(), lr=0.1)
reference(batches[1]).sum().div(2).backward()  # mean over the 2 ranks' sums
ref_optimizer.step()

for reset in (False, True):
    model = build()
    for i in LAYERS:
        fully_shard(model[i], mesh=mesh)
    fully_shard(model, mesh=mesh)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    label = "with reset   " if reset else "without reset"

    hook = model[1].register_full_backward_hook(check_gradient)
    try:
        model(batches[0][mine]).sum().backward()  # step 0: fails half-way
    except FloatingPointError as error:
        print(f"rank {rank} {label}: step 0 raised {error!r}")
    hook.remove()
    left = [model[i].weight.grad is not None for i in LAYERS]
    print(f"rank {rank} {label}: .grad left by the failed step (layers 0, 2, 4): {left}")
    if reset:
        model.reset_iter_state()  # on the root
        left = [model[i].weight.grad is not None for i in LAYERS]
        print(f"rank {rank} {label}: after reset_iter_state(): {left}")

    model(batches[1][mine]).sum().backward()  # step 1
    optimizer.step()
    optimizer.zero_grad()
    print(f"rank {rank} {label}: after step 1, weights are {kinds(model)}")
    if reset:
        same = all(torch.allclose(p.full_tensor(), q)
                   for p, q in zip(model.parameters(), reference.parameters()))
        print(f"rank {rank} {label}: equal to the reference: {same}")

try:
    model[0].reset_iter_state()  # not the root
except RuntimeError as error:
    print(f"rank {rank} on model[0]: {error}")

del model, optimizer, mesh
gc.collect()  # FSDP's modules, hooks and graphs form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
