"""ScheduleZBVZeroBubble and ScheduleDualPipeV: exactly 2 stages per rank, placed in a V (on 2
ranks and 4 stages, rank 0 holds stages 0 and 3, rank 1 holds stages 1 and 2), so rank 0 holds
both the first and the last stage. Every rank prints its own step order (schedule.pipeline_order)
and how many activations it keeps alive at most (analyze_pipeline_activation_liveness), and
checks the loss and gradients against the whole model run in one process.

Run: torchrun --standalone --nproc-per-node=2 pipeline_v_shape.py
Variants: gloo-cpu, nccl-cuda
Timeout: 120
"""
import contextlib
import os
import re

import torch
import torch.distributed as dist
# Before init_process_group: imported later (as optimizers do), it keeps a reference
# to the default group, and destroy_process_group() cannot free it (torch 2.15).
import torch.distributed.nn  # noqa: F401
from torch import nn
from torch.distributed.pipelining import (
    PipelineStage,
    ScheduleDualPipeV,
    ScheduleZBVZeroBubble,
    analyze_pipeline_activation_liveness,
)

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
if os.environ.get("DEVICE", "cpu") == "cuda":
    device = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device)
else:
    device = torch.device("cpu")
dist.init_process_group(backend, device_id=device if device.type == "cuda" else None)
rank, world = dist.get_rank(), dist.get_world_size()
num_stages, n_microbatches = 2 * world, 4  # DualPipeV needs at least one micro-batch per stage
my_stages = (rank, num_stages - 1 - rank)  # V placement: down the ranks, then back up


def make_model():
    torch.manual_seed(0)  # the same weights on every rank and for every schedule
    return nn.Sequential(*(nn.Sequential(nn.Linear(4, 4), nn.Tanh()) for _ in range(num_stages)))


def loss_fn(output, target):
    return nn.functional.mse_loss(output, target)


ran, probes = [], []


def record(info):  # called around every forward of a stage, with a PipelineStageInfo
    (probes if info.is_metadata_inference else ran).append(
        f"{info.stage_index}F{info.microbatch_index}")
    return contextlib.nullcontext()


torch.manual_seed(1)
x, y = torch.randn(8, 4), torch.randn(8, 4)
reference = make_model()  # the whole model in one process, for the checks
reference_loss = loss_fn(reference(x), y)
reference_loss.backward()

for schedule_class in (ScheduleZBVZeroBubble, ScheduleDualPipeV):
    model = make_model().to(device)  # fresh weights and gradients for each schedule
    stages = [PipelineStage(model[s], s, num_stages, device) for s in my_stages]
    schedule = schedule_class(stages, n_microbatches=n_microbatches, loss_fn=loss_fn)
    # I = backward to the input, W = backward to the weights (B = both at once);
    # (a;b)OVERLAP_F_B runs a forward and a backward of two stages as one step.
    plan = " ".join("." if a is None else str(a) for a in schedule.pipeline_order[rank])
    print(f"rank {rank} {schedule_class.__name__}:", plan)
    liveness = analyze_pipeline_activation_liveness(
        schedule, pp_rank=rank, stage_indices=my_stages, granularity="stage_microbatch")
    print(f"rank {rank}: at most {liveness.num_slots} of its "
          f"{len(my_stages) * n_microbatches} activations alive at once")

    ran.clear()
    probes.clear()
    for stage in stages:
        stage.register_forward_context(record)
    if rank == 0:
        losses = []
        # Rank 0 holds stage 0 and the last stage: it passes the input and the target.
        schedule.step(x.to(device), target=y.to(device), losses=losses)
        print(f"rank {rank}: mean micro-batch loss {torch.stack(losses).mean().item():.6f}, "
              f"whole model {reference_loss.item():.6f}")
    else:
        schedule.step()  # the middle stages get everything from their neighbours
    # The first step also runs each stage once to infer the shapes it sends and receives.
    print(f"rank {rank}: forwards ran as planned: {ran == re.findall(r'[0-9]+F[0-9]+', plan)}, "
          f"after {len(probes)} shape-inference probes")
    same = all(torch.allclose(p.grad.cpu(), q.grad, atol=1e-6)
               for s in my_stages
               for p, q in zip(model[s].parameters(), reference[s].parameters()))
    print(f"rank {rank}: gradients equal the single-process ones: {same}")
    del schedule, stages

dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
