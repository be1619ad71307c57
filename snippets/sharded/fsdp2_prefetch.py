"""set_modules_to_forward_prefetch / set_modules_to_backward_prefetch: all-gather two layers
ahead.

Run: torchrun --standalone --nproc-per-node=2 fsdp2_prefetch.py
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
log = []


class LoggedAllGather:
    """The default all-gather, plus a log entry: set with set_custom_all_gather."""

    def __init__(self, name):
        self.name = name

    def allocate(self, size, *, dtype, device):
        return torch.empty(size, dtype=dtype, device=device)

    def __call__(self, output_tensor, input_tensor, group, async_op=False):
        log.append(f"gather {self.name}")
        return dist.all_gather_into_tensor(output_tensor, input_tensor, group=group,
                                           async_op=async_op)


def mark(name):
    def forward_hook(module, args, output):
        log.append(f"run {name}")  # FSDP's pre-forward hook has already gathered
        # runs after FSDP's own hook on this output, which gathers for backward
        output.register_hook(lambda grad: log.append(f"backward {name}"))
    return forward_hook


for explicit in (False, True):
    torch.manual_seed(0)
    model = nn.Sequential(*(nn.Linear(4, 4) for _ in range(4))).to(device_type)
    for i, layer in enumerate(model):
        fully_shard(layer, mesh=mesh)
        layer.set_custom_all_gather(LoggedAllGather(i))
        layer.register_forward_hook(mark(i))
    fully_shard(model, mesh=mesh)
    if explicit:
        for i, layer in enumerate(model):
            # forward: the next two layers; backward: the two before, nearest first
            layer.set_modules_to_forward_prefetch([model[j] for j in (i + 1, i + 2) if j < 4])
            layer.set_modules_to_backward_prefetch([model[j] for j in (i - 1, i - 2) if j >= 0])
    label = "explicit" if explicit else "default"
    loss = model(torch.ones(2, 4, device=device_type)).sum()
    print(f"rank {rank} {label} forward:  {', '.join(log)}")
    log.clear()
    loss.backward()
    print(f"rank {rank} {label} backward: {', '.join(log)}")
    log.clear()
    del model, loss, layer

del mesh
gc.collect()  # FSDP's modules, hooks and graphs form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
