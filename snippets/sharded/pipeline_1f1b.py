"""Schedule1F1B: the same 2-stage pipeline, trained for a few steps with an optimizer on
each stage. After a warm-up, each stage alternates one forward and one backward, so it keeps
fewer micro-batches' activations alive than GPipe. schedule.eval() runs forward passes only.

Run: torchrun --standalone --nproc-per-node=2 pipeline_1f1b.py
Variants: gloo-cpu, nccl-cuda
Timeout: 120
"""
import os

import torch
import torch.distributed as dist
# Before init_process_group: imported later (as optimizers do), it keeps a reference
# to the default group, and destroy_process_group() cannot free it (torch 2.15).
import torch.distributed.nn  # noqa: F401
from torch import nn
from torch.distributed.pipelining import PipelineStage, Schedule1F1B

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
if os.environ.get("DEVICE", "cpu") == "cuda":
    device = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device)
else:
    device = torch.device("cpu")
dist.init_process_group(backend, device_id=device if device.type == "cuda" else None)
rank, world = dist.get_rank(), dist.get_world_size()
first, last = rank == 0, rank == world - 1

torch.manual_seed(0)
full = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 1))
part = (full[:2] if first else full[2:]).to(device)  # this rank's stage
stage = PipelineStage(part, stage_index=rank, num_stages=world, device=device)
schedule = Schedule1F1B(stage, n_microbatches=4, loss_fn=nn.functional.mse_loss)
optimizer = torch.optim.SGD(part.parameters(), lr=0.05)  # each stage updates its own layers

torch.manual_seed(1)
x = torch.randn(32, 8, device=device)
y = x.sum(dim=1, keepdim=True)  # a target the model can learn
for step in range(4):
    optimizer.zero_grad()
    if first:
        schedule.step(x)
        print(f"step {step}: stage 0 ran its forward and backward passes")
    else:
        losses = []
        schedule.step(target=y, losses=losses)
        print(f"step {step}: mean micro-batch loss {torch.stack(losses).mean().item():.4f}")
    optimizer.step()

with torch.no_grad():
    if first:
        schedule.eval(x)
        print("stage 0: eval, forward only")
    else:
        out = schedule.eval(target=y, losses=(losses := []))  # the last stage gets the output
        print("eval output:", tuple(out.shape),
              f"mean loss {torch.stack(losses).mean().item():.4f}")

del schedule, stage
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
