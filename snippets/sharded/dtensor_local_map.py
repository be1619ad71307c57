"""local_map runs plain tensor code on each shard; implicit_replication mixes in plain tensors.

Run: torchrun --standalone --nproc-per-node=2 dtensor_local_map.py
Variants: gloo-cpu, nccl-cuda
"""
import os

import torch
import torch.distributed as dist
# Before init_process_group: imported later (as DTensor does), it keeps a reference
# to the default group, and destroy_process_group() cannot free it (torch 2.15).
import torch.distributed.nn  # noqa: F401
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import Partial, Replicate, Shard, distribute_tensor
from torch.distributed.tensor.experimental import implicit_replication, local_map

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
device_type = os.environ.get("DEVICE", "cpu")
device_id = None
if device_type == "cuda":
    device_id = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device_id)
dist.init_process_group(backend, device_id=device_id)
rank = dist.get_rank()
mesh = init_device_mesh(device_type, (2,))

full = torch.arange(1.0, 13.0, device=device_type).view(4, 3)
rows = distribute_tensor(full, mesh, [Shard(0)])


def normalize_rows(t):  # plain tensor code: it sees one rank's rows
    return t / t.abs().sum(dim=-1, keepdim=True)


per_shard = local_map(normalize_rows, out_placements=[Shard(0)], in_placements=([Shard(0)],))
out = per_shard(rows)
print(f"rank {rank} local_map: {out.placements}, local {list(out.to_local().shape)},"
      " equals the whole tensor's result: "
      f"{torch.allclose(out.full_tensor(), normalize_rows(full))}")

replicated = distribute_tensor(full, mesh, [Replicate()])
try:
    per_shard(replicated)
except ValueError as error:
    message = str(error)
    print(f"rank {rank} ValueError: ...{message[message.index(' in local_map'):]}")
resharding = local_map(normalize_rows, out_placements=[Shard(0)], in_placements=([Shard(0)],),
                       redistribute_inputs=True)
out = resharding(replicated)  # Replicate() -> Shard(0) first: each rank keeps its rows
print(f"rank {rank} redistribute_inputs=True: {out.placements}, local "
      f"{list(out.to_local().shape)}")

# a local sum is one addend of the global sum: declare it Partial()
partial_sum = local_map(torch.sum, out_placements=[Partial()], in_placements=([Shard(0)],))
total = partial_sum(rows)
print(f"rank {rank} local sum {total.to_local().item()} as {total.placements},"
      f" full_tensor() {total.full_tensor().item()}")
wrong = local_map(torch.sum, out_placements=[Replicate()], in_placements=([Shard(0)],))
total = wrong(rows)  # not checked: each rank now holds a different "replicated" value
print(f"rank {rank} declared {total.placements}: full_tensor() {total.full_tensor().item()}")

bias = torch.tensor([1.0, 0.0, -1.0], device=device_type)  # plain, the same on every rank
try:
    rows + bias
except RuntimeError as error:
    print(f"rank {rank} RuntimeError: {error}")
with implicit_replication():  # plain tensors count as Replicate()
    shifted = rows + bias
print(f"rank {rank} with implicit_replication(): {shifted.placements},"
      f" equals full + bias: {torch.equal(shifted.full_tensor(), full + bias)}")

del mesh
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
