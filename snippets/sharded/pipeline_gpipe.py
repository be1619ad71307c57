"""torch.distributed.pipelining: split a model into 2 stages on 2 ranks and run a training
step with ScheduleGPipe: the batch is cut into micro-batches, rank 0 runs the first half of
the model on each and sends the activations to rank 1, which runs the second half, the loss,
and sends the gradients back.

Run: torchrun --standalone --nproc-per-node=2 pipeline_gpipe.py
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
# Every rank builds the same model and keeps only its part: layers 0-1 or 2-4.
part = (full[:2] if rank == 0 else full[2:]).to(device)
stage = PipelineStage(part, stage_index=rank, num_stages=world, device=device)


def loss_fn(output, target):
    return nn.functional.mse_loss(output, target)


schedule = ScheduleGPipe(stage, n_microbatches=4, loss_fn=loss_fn)

torch.manual_seed(1)  # the same batch on every rank; only the first and last stage use it
x, y = torch.randn(16, 8, device=device), torch.randn(16, 1, device=device)
if rank == 0:
    schedule.step(x)  # the first stage takes the input
    print("stage 0: ran layers 0-1 on 4 micro-batches of", x.shape[0] // 4, "rows")
else:
    losses = []
    schedule.step(target=y, losses=losses)  # the last stage takes the target
    print("micro-batch losses:", [round(loss.item(), 4) for loss in losses])

# Check: the same step in one process, on the whole model, gives the same gradients
# (the schedule divides each micro-batch's gradient by their number: scale_grads=True).
torch.manual_seed(0)
reference = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 16), nn.ReLU(),
                          nn.Linear(16, 1))
loss_fn(reference(x.cpu()), y.cpu()).backward()
mine = reference[:2] if rank == 0 else reference[2:]
same = all(torch.allclose(p.grad, q.grad.cpu(), atol=1e-6)
           for p, q in zip(mine.parameters(), part.parameters()))
print(f"stage {rank} gradients equal the single-process ones:", same)

del schedule, stage
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
