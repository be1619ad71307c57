"""split_group vs new_group: the rank order of a subgroup, and shrink_group on gloo.

new_group(ranks) sorts its ranks, so group rank i is the i-th smallest global rank.
split_group(split_ranks=...) keeps the order given: here [[1, 0]] makes global rank 1 the
group's rank 0. get_group_rank and get_global_rank translate between the numberings.
shrink_group needs a backend that can shrink a communicator; gloo cannot.

Run: torchrun --standalone --nproc-per-node=2 split_group.py
"""
import torch
import torch.distributed as dist

dist.init_process_group("gloo")
rank = dist.get_rank()

created = dist.new_group([1, 0])
split = dist.split_group(split_ranks=[[1, 0]])  # every rank of the parent group calls it
for name, group in (("new_group([1, 0])", created), ("split_group([[1, 0]])", split)):
    print(f"{name}: global rank {rank} is group rank {dist.get_group_rank(group, rank)}; "
          f"group rank 0 is global rank {dist.get_global_rank(group, 0)}")

tensor = torch.tensor([float(rank)])
dist.broadcast(tensor, group_src=0, group=split)  # group_src counts in the split's order
print(f"broadcast from group rank 0 of the split: {tensor.item()}")

if rank == 0:  # only the ranks that stay call it
    try:
        dist.shrink_group([1])
    except TypeError as exc:
        print(f"shrink_group([1]): TypeError: {exc}")

del created, split, group
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
