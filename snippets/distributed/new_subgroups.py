"""dist.new_subgroups: cut the world into equal consecutive groups, one call on every rank.

Run: torchrun --standalone --nproc-per-node=4 new_subgroups.py
Variants: gloo-cpu, nccl-cuda
Output: same on all devices
"""
import os

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

# Ranks [0, 1] and [2, 3]: each rank gets its own subgroup, and the list of all of them.
mine, everyone = dist.new_subgroups(group_size=2)
tensor = torch.tensor([rank], device=device)
dist.all_reduce(tensor, group=mine)
print(f"new_subgroups(group_size=2): in {dist.get_process_group_ranks(mine)}, "
      f"sum {tensor.item()}, {len(everyone)} subgroups in all")

# Any partition, given explicitly: [0, 3] and [1, 2].
mine, everyone = dist.new_subgroups_by_enumeration([[0, 3], [1, 2]])
tensor = torch.tensor([rank], device=device)
dist.all_reduce(tensor, group=mine)
print(f"new_subgroups_by_enumeration: in {dist.get_process_group_ranks(mine)}, sum "
      f"{tensor.item()}")

del mine, everyone  # group handles kept alive would outlive destroy_process_group()
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
