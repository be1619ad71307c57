"""dist.new_group: a collective on some of the ranks; every rank creates every group, in order.

Non-members get GroupMember.NON_GROUP_MEMBER; a collective they call on it returns None at once,
leaves the tensor alone and warns (a UserWarning, caught here and printed to stdout).

Run: torchrun --standalone --nproc-per-node=4 new_group.py
Variants: gloo-cpu, nccl-cuda
"""
import os
import warnings

import torch
import torch.distributed as dist

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
dist.init_process_group(backend)
rank = dist.get_rank()
if os.environ.get("DEVICE", "cpu") == "cuda":
    device = torch.device("cuda", int(os.environ["LOCAL_RANK"]) % torch.cuda.device_count())
    torch.cuda.set_device(device)
else:
    device = torch.device("cpu")

# Every rank runs both calls, in the same order, even for the group it will not be in.
evens = dist.new_group([0, 2])
odds = dist.new_group([1, 3])
mine, other = (evens, odds) if rank % 2 == 0 else (odds, evens)

members = dist.get_process_group_ranks(mine)
print(f"my group: global ranks {members}, I am its rank {dist.get_rank(mine)} "
      f"of {dist.get_world_size(mine)}")
tensor = torch.tensor([rank], device=device)
dist.all_reduce(tensor, group=mine)
print(f"all_reduce in my group: {tensor.item()}")

tensor = torch.tensor([10 * rank], device=device)
dist.broadcast(tensor, group_src=0, group=mine)  # group_src: a rank within the group
print(f"broadcast from the group's rank 0 (global rank {dist.get_global_rank(mine, 0)}): "
      f"{tensor.item()}")

tensor = torch.tensor([rank], device=device)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    result = dist.all_reduce(tensor, group=other)
print(f"other group: NON_GROUP_MEMBER {other == dist.GroupMember.NON_GROUP_MEMBER}, "
      f"get_rank {dist.get_rank(other)}; all_reduce returns {result}, tensor stays {tensor.item()}")
print(f"  {caught[0].category.__name__}: {caught[0].message}")

# With use_local_synchronization=True, only the members call new_group.
if rank in (0, 1):
    pair = dist.new_group([0, 1], use_local_synchronization=True)
    tensor = torch.tensor([rank + 1], device=device)
    dist.all_reduce(tensor, group=pair)
    print(f"group [0, 1], created by its members only: sum {tensor.item()}")
    del pair
else:
    print("not in [0, 1]: this rank never calls new_group for it")

del evens, odds, mine, other  # group handles kept alive would outlive destroy_process_group()
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
