"""A distributed function worth testing: the mean over all ranks' samples, with uneven counts.

The obvious shortcut, averaging the per-rank means, is wrong when ranks hold different numbers
of samples; global_mean sums values and counts instead. The test suite also runs this script
through the harness on 2 and 3 ranks (test_global_mean.py, beside it).

Run: torchrun --standalone --nproc-per-node=2 global_mean.py
"""
import os

import torch
import torch.distributed as dist


def global_mean(values: torch.Tensor) -> float:
    """Mean of the values of every rank (ranks may hold different numbers of values)."""
    totals = torch.tensor([values.sum().item(), float(values.numel())], dtype=torch.float64,
                          device=values.device)
    dist.all_reduce(totals)  # [sum of all values, number of all values]
    return (totals[0] / totals[1]).item()


def mean_of_means(values: torch.Tensor) -> float:
    """The shortcut: right only when every rank holds as many values as the others."""
    mean = torch.tensor([values.mean().item()], dtype=torch.float64, device=values.device)
    dist.all_reduce(mean, op=dist.ReduceOp.AVG)
    return mean.item()


if __name__ == "__main__":
    backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
    if os.environ.get("DEVICE", "cpu") == "cuda":
        device = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
        torch.cuda.set_device(device)
    else:
        device = torch.device("cpu")
    dist.init_process_group(backend, device_id=device if device.type == "cuda" else None)
    rank = dist.get_rank()
    # rank r holds r + 1 values
    values = torch.arange(float(rank + 1), device=device) + 10 * rank
    print(f"rank {rank} holds {values.tolist()}")
    print(f"global_mean: {global_mean(values):.4f}, mean_of_means: {mean_of_means(values):.4f}")
    dist.barrier()  # no rank tears down while a peer still talks to it
    dist.destroy_process_group()
