"""dist.new_group: a collective on some of the ranks; every rank creates every group, in order.

Non-members get GroupMember.NON_GROUP_MEMBER; a collective they call on it returns None at once,
leaves the tensor alone and warns (a UserWarning, caught here and printed to stdout).
With the default use_local_synchronization=False a group is named by a counter that every
new_group call advances, on members and non-members alike; with True it is named by a hash of
its ranks and of that counter, and only the members call new_group (and advance the counter).

Run: torchrun --standalone --nproc-per-node=4 new_group.py
Variants: gloo-cpu, nccl-cuda
"""
import os
import warnings

import torch
import torch.distributed as dist

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
if os.environ.get("DEVICE", "cpu") == "cuda":
    device = torch.device("cuda", int(os.environ["LOCAL_RANK"]) % torch.cuda.device_count())
    torch.cuda.set_device(device)
else:
    device = torch.device("cpu")
dist.init_process_group(backend, device_id=device if device.type == "cuda" else None)
rank = dist.get_rank()

# Every rank runs both calls, in the same order, even for the group it will not be in.
# Ranks 1 and 3 make the first call only after ranks 0 and 2 have used the group:
# creating it waits for no non-member.
token = torch.zeros(1, device=device)
if rank in (0, 2):
    evens = dist.new_group([0, 2])
    dist.all_reduce(token, group=evens)
    if rank == 0:
        dist.send(token, dst=1)
        dist.send(token, dst=3)
    print("group [0, 2] created and used before ranks 1 and 3 called new_group")
else:
    dist.recv(token, src=0)  # sent after group [0, 2] ran its all_reduce
    evens = dist.new_group([0, 2])  # still needed: it advances the name counter
odds = dist.new_group([1, 3])
mine, other = (evens, odds) if rank % 2 == 0 else (odds, evens)

members = dist.get_process_group_ranks(mine)
print(f"my group: global ranks {members}, I am its rank {dist.get_rank(mine)} "
      f"of {dist.get_world_size(mine)}; its name: {mine.group_name!r}")
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
      f"get_rank {dist.get_rank(other)}; all_reduce returns {result}, tensor stays "
      f"{tensor.item()}")
print(f"  {caught[0].category.__name__}: {caught[0].message}")

# With use_local_synchronization=True, only the members call new_group.
pair_ranks = [0, 1] if rank < 2 else [2, 3]
pair = dist.new_group(pair_ranks, use_local_synchronization=True)
tensor = torch.tensor([rank + 1], device=device)
dist.all_reduce(tensor, group=pair)
print(f"group {pair_ranks}, created by its members only: sum {tensor.item()}, "
      f"name: a {len(pair.group_name)}-character hash")
if rank == 3:
    # A non-member that calls it anyway gets no group it can use: NON_GROUP_MEMBER in recent
    # torch; releases that returned None there made it look like group=None, the default group.
    stray = dist.new_group([0, 1], use_local_synchronization=True)
    print(f"rank 3 calls it for [0, 1] too: {stray!r}, "
          f"NON_GROUP_MEMBER {stray == dist.GroupMember.NON_GROUP_MEMBER}")

# Group handles kept alive would outlive destroy_process_group().
del evens, odds, mine, other, pair
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
