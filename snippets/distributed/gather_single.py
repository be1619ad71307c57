"""dist.gather_single: gather into one tensor on dst, where the backend supports it.

Like all_gather_into_tensor, but only dst receives: the inputs are concatenated into dst's
gather_tensor (gather_into_tensor is an older name that calls it). The gloo backend does
not implement it and raises at once, on every rank; gather() with a list of tensors is the
gloo way.

Run: torchrun --standalone --nproc-per-node=2 gather_single.py
"""
import torch
import torch.distributed as dist

dist.init_process_group("gloo")
rank = dist.get_rank()

mine = torch.tensor([rank + 1.0, 10.0 * (rank + 1)])
output = torch.zeros(4) if rank == 0 else None  # only dst passes an output
try:
    dist.gather_single(mine, output, dst=0)
except RuntimeError as exc:
    print(f"gather_single on gloo: {type(exc).__name__}: {exc}")

pieces = [torch.zeros(2) for _ in range(2)] if rank == 0 else None
dist.gather(mine, pieces, dst=0)
print(f"gather instead: {torch.cat(pieces).tolist() if rank == 0 else 'nothing on rank 1'}")

dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
