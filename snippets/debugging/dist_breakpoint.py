"""dist.breakpoint(rank=0): pdb on one rank, while the other ranks wait at a barrier.

Rank 0 stops in pdb; the others go on to a barrier inside dist.breakpoint() and wait
there until rank 0 continues. pdb reads its commands from /dev/stdin, the terminal
torchrun was started from. A recorded example cannot type, so rank 0 first puts the
commands in a pipe and makes it its standard input, and captures pdb's output to print
it with the commands and without this machine's paths. Leave those lines out to debug
for real.

Run: torchrun --standalone --nproc-per-node=2 dist_breakpoint.py
Variants: gloo-cpu, nccl-cuda
"""
import io
import os
import re
import sys

import torch
import torch.distributed as dist

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
device_type = os.environ.get("DEVICE", "cpu")
device_id = None
if device_type == "cuda":
    device_id = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device_id)
dist.init_process_group(backend, device_id=device_id)
rank = dist.get_rank()
x = torch.arange(3.0, device=device_type) + rank  # rank 0: [0, 1, 2], rank 1: [1, 2, 3]

COMMANDS = ["up", "p rank, x", "x[0] = 100", "c"]  # what you would type
if rank == 0:  # stands in for the keyboard: the commands, then end of input
    read_end, write_end = os.pipe()
    os.write(write_end, "".join(f"{command}\n" for command in COMMANDS).encode())
    os.close(write_end)
    os.dup2(read_end, 0)  # /dev/stdin is now the pipe
    os.close(read_end)
    session = io.StringIO()
    sys.stdout = session  # pdb writes to sys.stdout: captured, printed below
else:
    print(f"rank {rank} reaches dist.breakpoint() and waits")

dist.breakpoint(rank=0)

if rank == 0:
    sys.stdout = sys.__stdout__
    text = session.getvalue()
    # paths and line numbers change between machines and versions: masked
    text = re.sub(r"\S*/(torch/\S+\.py)\(\d+\)", r"…/\1(…)", text)
    script = re.escape(os.path.basename(__file__))
    text = re.sub(rf"\S*/({script})\(\d+\)", r"\1(…)", text)
    parts = text.split("(Pdb) ")
    print(parts[0].strip("\n"))
    for command, answer in zip(COMMANDS, parts[1:]):  # each prompt with its command
        print(f"(Pdb) {command}")
        if answer.strip():
            print(answer.rstrip("\n"))
else:
    print(f"rank {rank} goes on after rank 0's 'c'")
dist.all_reduce(x)  # rank 0's edit made in pdb is part of the sum
print(f"rank {rank} x after all_reduce: {x.tolist()}")

dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
