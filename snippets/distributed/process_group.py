"""dist.ProcessGroup: the object init_process_group and new_group create, and its backend.

dist.group.WORLD is the default group. A rank outside a new_group() gets a placeholder
instead of a ProcessGroup. get_pg_count() counts the groups created so far, and
get_backend_impl() returns the backend object doing the communication for a group: a
dist.ProcessGroupGloo here, which says what it supports.

Run: torchrun --standalone --nproc-per-node=2 process_group.py
"""
import torch.distributed as dist

dist.init_process_group("gloo")
rank = dist.get_rank()
print(f"get_pg_count() after init_process_group: {dist.get_pg_count()}")

world = dist.group.WORLD
print(f"group.WORLD is a dist.ProcessGroup: {isinstance(world, dist.ProcessGroup)}; "
      f"rank() = {world.rank()}, size() = {world.size()}, name() = {world.name()!r}")

only_one = dist.new_group([1])  # every rank calls new_group, even those left out
print(f"get_pg_count() after new_group([1]): {dist.get_pg_count()}")
if isinstance(only_one, dist.ProcessGroup):
    print(f"new_group([1]): a ProcessGroup, rank() = {only_one.rank()}, size() = "
          f"{only_one.size()}")
else:
    print(f"new_group([1]) on rank {rank}: {only_one!r}, "
          "the same as GroupMember.NON_GROUP_MEMBER: "
          f"{only_one is dist.GroupMember.NON_GROUP_MEMBER}")

impl = dist.get_backend_impl()  # the default group's backend
print(f"get_backend_impl(): {type(impl).__name__}, a dist.ProcessGroupGloo: "
      f"{isinstance(impl, dist.ProcessGroupGloo)}")
print(f"  supports_splitting = {impl.supports_splitting}, supports_shrinking = "
      f"{impl.supports_shrinking}")

del only_one, world, impl
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
