"""dist.send and dist.recv: blocking point-to-point messages, from a named rank or from any rank.

Run: torchrun --standalone --nproc-per-node=3 send_recv.py
Variants: gloo-cpu
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

# 1. A named sender: rank 0 sends, rank 1 receives into a buffer of the same shape and dtype.
if rank == 0:
    dist.send(torch.tensor([1.5, 2.5], device=device), dst=1)
    print("sent [1.5, 2.5] to rank 1")
elif rank == 1:
    buffer = torch.zeros(2, device=device)
    sender = dist.recv(buffer, src=0)  # blocks until the message is there
    print(f"received {buffer.tolist()} from rank {sender}")

# 2. Any sender: ranks 1 and 2 send, rank 0 takes the messages in whatever order they arrive.
if rank == 0:
    got = []
    for _ in range(2):
        buffer = torch.zeros(1, device=device)
        sender = dist.recv(buffer)  # no src: any rank; returns who sent it
        got.append((sender, buffer.item()))
    print(f"received from any source (sorted): {sorted(got)}")
else:
    dist.send(torch.tensor([100.0 * rank], device=device), dst=0)
    print(f"sent {100.0 * rank} to rank 0")

dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
