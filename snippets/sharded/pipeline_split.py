"""pipeline() and SplitPoint: instead of cutting the model by hand, name where each new stage
begins; pipeline() traces the model with torch.export on one micro-batch, splits the graph
there, and pipe.build_stage(rank, device) gives each rank its stage.

Run: torchrun --standalone --nproc-per-node=2 pipeline_split.py
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
from torch.distributed.pipelining import ScheduleGPipe, SplitPoint, pipeline

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
        self.layers = nn.ModuleList(nn.Linear(8, 8) for _ in range(4))
        self.head = nn.Linear(8, 1)

    def forward(self, x):
        for layer in self.layers:
            x = torch.relu(layer(x))
        return self.head(x)


torch.manual_seed(0)
net = Net()
torch.manual_seed(1)
x, y = torch.randn(16, 8), torch.randn(16, 1)
# Stage 1 begins at layers.2: stage 0 = layers 0-1, stage 1 = layers 2-3 and head.
pipe = pipeline(net, mb_args=(x[:4],), split_spec={"layers.2": SplitPoint.BEGINNING})
print("stages:", pipe.num_stages)
stage = pipe.build_stage(rank, device)
print(f"stage {rank} parameters:", [name for name, _ in stage.submod.named_parameters()])

schedule = ScheduleGPipe(stage, n_microbatches=4, loss_fn=nn.functional.mse_loss)
if rank == 0:
    schedule.step(x.to(device))
else:
    losses = []
    schedule.step(target=y.to(device), losses=losses)
    print("micro-batch losses:", [round(loss.item(), 4) for loss in losses])

del schedule, stage, pipe
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
