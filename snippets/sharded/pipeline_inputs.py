"""Pipeline inputs: a stage other than the first ignores the input given to step().

Three stages on three ranks run the same batch twice. The first time the middle stage calls
step() without input, as it should; the second time it passes a tensor of the wrong shape.
That raises no error and changes nothing: a stage other than the first takes its input from
the stage before it, and the last stage's losses are the same both times.

Run: torchrun --standalone --nproc-per-node=3 pipeline_inputs.py
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
from torch.distributed.pipelining import PipelineStage, ScheduleGPipe

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
if os.environ.get("DEVICE", "cpu") == "cuda":
    device = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device)
else:
    device = torch.device("cpu")
dist.init_process_group(backend, device_id=device if device.type == "cuda" else None)
rank, world = dist.get_rank(), dist.get_world_size()

torch.manual_seed(0)
full = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 16), nn.ReLU(), nn.Linear(16, 1))
part = (full[:2], full[2:4], full[4:])[rank].to(device)  # layers 0-1, 2-3 or 4
stage = PipelineStage(part, stage_index=rank, num_stages=world, device=device)
schedule = ScheduleGPipe(stage, n_microbatches=4, loss_fn=nn.functional.mse_loss)

torch.manual_seed(1)
x, y = torch.randn(16, 8, device=device), torch.randn(16, 1, device=device)
wrong = torch.full((16, 3), 1e6, device=device)  # not even the shape the middle stage takes
for middle_input in (None, wrong):
    what = "nothing" if middle_input is None else "a [16, 3] tensor"
    if rank == 0:
        schedule.step(x)  # the first stage takes the input
        print("first stage passed the batch")
    elif rank == world - 1:
        losses = []
        schedule.step(target=y, losses=losses)  # the last stage takes the target
        print(f"middle stage passed {what}: losses {[round(loss.item(), 4) for loss in losses]}")
    elif middle_input is None:
        schedule.step()
        print(f"middle stage passed {what}")
    else:
        schedule.step(middle_input)  # ignored, without an error
        print(f"middle stage passed {what}: no error")

del schedule, stage
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
