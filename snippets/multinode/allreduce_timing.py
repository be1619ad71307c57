"""How long an all_reduce takes across the machines: a fixed-size float32 tensor, a few warm-up
rounds (connections, buffers), then timed rounds. The times differ from run to run, so the
script prints only what does not (payload, rounds, the sum) and rank 0 writes the times to the
JSON file named on the command line, if one is.

Run: torchrun --standalone --nproc-per-node=2 allreduce_timing.py
Variants: gloo-cpu
"""
import json
import sys
import time

import torch
import torch.distributed as dist

ELEMENTS = 256 * 1024  # float32: 1 MiB
WARMUP, ROUNDS = 2, 5

dist.init_process_group("gloo")
rank, world_size = dist.get_rank(), dist.get_world_size()

grad = torch.empty(ELEMENTS)
seconds = []
for round_ in range(WARMUP + ROUNDS):
    grad.fill_(rank + 1)
    dist.barrier()  # every rank starts the round together
    began = time.perf_counter()
    dist.all_reduce(grad)  # returns when this rank has the sum of every rank's tensor
    if round_ >= WARMUP:
        seconds.append(time.perf_counter() - began)

expected = world_size * (world_size + 1) / 2
payload = grad.numel() * grad.element_size()
# One write per line: the workers of a machine share torchrun's output.
print(f"rank {rank}: all_reduce of {payload} bytes x {ROUNDS} timed rounds, "
      f"sum {grad[0].item():g} everywhere: {bool((grad == expected).all())}\n", end="", flush=True)
if rank == 0 and len(sys.argv) > 1:
    with open(sys.argv[1], "w") as timings:
        json.dump({"payload_bytes": payload, "world_size": world_size, "seconds": seconds}, timings)

dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
