"""torch.compile on a DDP model: wrap with DDP first, then compile the wrapped module. The
compiler splits the graph at DDP's gradient buckets, so that communication of one bucket
still overlaps the backward pass of the rest; the result matches the uncompiled model.

Run: torchrun --standalone --nproc-per-node=2 ddp_compile.py
Variants: gloo-cpu, nccl-cuda
Timeout: 300
"""
import gc
import logging
import os

import torch
import torch.distributed as dist
# Before init_process_group: imported later (as DDP and optimizers do), it keeps a reference
# to the default group, and destroy_process_group() cannot free it (torch 2.15).
import torch.distributed.nn  # noqa: F401
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
if os.environ.get("DEVICE", "cpu") == "cuda":
    device = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device)
else:
    device = torch.device("cpu")
dist.init_process_group(backend, device_id=device if device.type == "cuda" else None)
rank = dist.get_rank()

# DDP's forward marks itself with a profiler record_function, which the compiler skips and
# reports once on stderr ("Profiler record function ... will be ignored"); the compiled
# model is unaffected. Drop that one message only.
logging.getLogger("torch._dynamo.variables.ctx_manager").addFilter(
    lambda record: not record.getMessage().startswith("Profiler record function"))


def make_ddp():
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 1)).to(device)
    return DDP(net, device_ids=[device.index] if device.type == "cuda" else None)


eager = make_ddp()
compiled = torch.compile(make_ddp())  # on CPU inductor generates and compiles C++ code
torch.manual_seed(1 + rank)
x, y = torch.randn(16, 8, device=device), torch.randn(16, 1, device=device)
for model in (eager, compiled):
    nn.functional.mse_loss(model(x), y).backward()

print("compiled type:", type(compiled).__name__, "wrapping",
      type(next(compiled.children())).__name__)
same = all(torch.allclose(p.grad, q.grad, atol=1e-6)
           for p, q in zip(eager.parameters(), compiled.parameters()))
print("gradients match the uncompiled DDP model:", same)

del eager, compiled, model  # free DDP before tearing down the process group it uses
torch.compiler.reset()  # the compiled code's caches still refer to the DDP module
gc.collect()
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
