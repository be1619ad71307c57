"""Log one loss for the whole job: average it over the ranks with all_reduce, print it on rank 0.

Run: torchrun --standalone --nproc-per-node=2 reduce_mean.py
Variants: gloo-cpu, nccl-cuda
"""
import os

import torch
import torch.distributed as dist

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
if os.environ.get("DEVICE", "cpu") == "cuda":
    device = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device)
else:
    device = torch.device("cpu")
dist.init_process_group(backend, device_id=device if device.type == "cuda" else None)
rank = dist.get_rank()


def reduce_mean(tensor):
    """The mean of `tensor` over all ranks, on every rank; the input is left unchanged."""
    result = tensor.detach().clone()
    dist.all_reduce(result, op=dist.ReduceOp.SUM)
    return result / dist.get_world_size()


loss = torch.tensor(0.5 + rank, device=device)  # stands for this rank's loss of the step
print(f"rank {rank} local loss: {loss.item():.4f}")

mean = reduce_mean(loss)  # every rank must take part in the all_reduce...
average = loss.detach().clone()
dist.all_reduce(average, op=dist.ReduceOp.AVG)  # the same in one call
if rank == 0:  # ...but only rank 0 prints
    print(f"mean loss (SUM / world size): {mean.item():.4f}")
    print(f"mean loss (ReduceOp.AVG):     {average.item():.4f}")

dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
