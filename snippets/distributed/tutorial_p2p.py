"""Tutorial, point-to-point: rank 0 sends a tensor to rank 1, first blocking, then non-blocking.

Run: torchrun --standalone --nproc-per-node=2 tutorial_p2p.py
"""
import os

import torch
import torch.distributed as dist

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
if os.environ.get("DEVICE", "cpu") == "cuda":
    device = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device)
else:
    device = torch.device("cpu")
dist.init_process_group(backend, device_id=device if device.type == "cuda" else None)
rank = dist.get_rank()

# Blocking: both processes stop until the communication is done.
tensor = torch.zeros(1, device=device)
if rank == 0:
    tensor += 1
    dist.send(tensor, dst=1)
else:
    dist.recv(tensor, src=0)
print(f"blocking:     rank {rank} has {tensor.item()}")

# Non-blocking: isend/irecv return at once; wait() before touching the tensor again.
tensor = torch.zeros(1, device=device)
if rank == 0:
    tensor += 2
    request = dist.isend(tensor, dst=1)
else:
    request = dist.irecv(tensor, src=0)
request.wait()
print(f"non-blocking: rank {rank} has {tensor.item()}")
del request

dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
