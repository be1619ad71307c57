"""A Joinable of your own: what Join calls, and when.

ActiveRanks all-reduces a 1 at every step, so the sum says how many ranks are still in
the loop. Its JoinHook is what a rank that has run out of steps runs instead: main_hook()
all-reduces a 0 (the matching call, with nothing to add) once per step of the others, and
post_hook() runs once on every rank when all have joined. Rank 0 has 2 steps, rank 1 has 4.

Run: torchrun --standalone --nproc-per-node=2 join_custom.py
"""
import torch
import torch.distributed as dist
from torch.distributed.algorithms.join import Join, Joinable, JoinHook


class ActiveRanks(Joinable):
    def __init__(self):
        super().__init__()  # required: sets up the state Join reads
        self.main_hook_calls = 0

    def __call__(self):
        Join.notify_join_context(self)  # before this step's collectives: "not joined yet"
        active = torch.ones(1)
        dist.all_reduce(active)
        return int(active.item())

    def join_hook(self, **kwargs):  # kwargs: the extra keyword arguments given to Join(...)
        return ActiveRanksHook(self)

    @property
    def join_device(self):  # where Join's own all-reduces run
        return torch.device("cpu")

    @property
    def join_process_group(self):
        return dist.group.WORLD


class ActiveRanksHook(JoinHook):
    def __init__(self, joinable):
        self.joinable = joinable

    def main_hook(self):  # shadows one step's all-reduce, adding nothing
        self.joinable.main_hook_calls += 1
        dist.all_reduce(torch.zeros(1))

    def post_hook(self, is_last_joiner):
        print(f"rank {dist.get_rank()}: post_hook(is_last_joiner={is_last_joiner})")


dist.init_process_group("gloo")
rank = dist.get_rank()
counter = ActiveRanks()
with Join([counter]):
    sums = [counter() for _ in range(2 + 2 * rank)]  # rank 0: 2 steps, rank 1: 4
print(f"rank {rank}: ranks active at each of my steps: {sums}")
print(f"rank {rank}: main_hook ran {counter.main_hook_calls} times")

del counter
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
