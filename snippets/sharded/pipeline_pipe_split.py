"""pipe_split(): mark the stage boundary inside forward itself. Run eagerly, the marker does
nothing; pipeline() traces the model with torch.export and cuts the graph at each marker.
Each rank then takes its stage module from the Pipe (pipe.get_stage_module) and wraps it with
build_stage and the pipeline's description (pipe.info()).

Run: torchrun --standalone --nproc-per-node=2 pipeline_pipe_split.py
Variants: gloo-cpu, nccl-cuda
Timeout: 180
"""
import os

import torch
import torch.distributed as dist
# Before init_process_group: imported later (as optimizers do), it keeps a reference
# to the default group, and destroy_process_group() cannot free it (torch 2.15).
import torch.distributed.nn  # noqa: F401
from torch import nn
from torch.distributed.pipelining import Schedule1F1B, build_stage, pipe_split, pipeline

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
if os.environ.get("DEVICE", "cpu") == "cuda":
    device = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device)
else:
    device = torch.device("cpu")
dist.init_process_group(backend, device_id=device if device.type == "cuda" else None)
rank = dist.get_rank()


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.inp = nn.Linear(8, 8)
        self.mid = nn.Linear(8, 8)
        self.head = nn.Linear(8, 1)

    def forward(self, x):
        x = torch.relu(self.inp(x))
        x = x + torch.relu(self.mid(x))  # a residual: not a plain nn.Sequential
        pipe_split()  # stage 0 ends here, stage 1 begins
        return self.head(x)


torch.manual_seed(0)
net = Net()
torch.manual_seed(1)
x, y = torch.randn(16, 8), torch.randn(16, 1)
reference_loss = nn.functional.mse_loss(net(x), y)  # eager run: pipe_split() is a no-op

pipe = pipeline(net, mb_args=(x[:4],))  # no split_spec: the markers decide
print(f"rank {rank}: {pipe.num_stages} stages")
stage_module = pipe.get_stage_module(rank)
print(f"rank {rank}: stage {rank} parameters:", [n for n, _ in stage_module.named_parameters()])
stage = build_stage(stage_module, rank, pipe.info(), device)

schedule = Schedule1F1B(stage, n_microbatches=4, loss_fn=nn.functional.mse_loss)
if rank == 0:
    schedule.step(x.to(device))
else:
    losses = []
    schedule.step(target=y.to(device), losses=losses)
    print(f"rank {rank}: mean micro-batch loss {torch.stack(losses).mean().item():.6f}, "
          f"eager model {reference_loss.item():.6f}")

del schedule, stage, stage_module, pipe
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
