"""dist.isend and dist.irecv: non-blocking point-to-point; each returns a Work to wait() on.

Run: torchrun --standalone --nproc-per-node=2 isend_irecv.py
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

peer = 1 - rank
outgoing = torch.tensor([10.0 * (rank + 1)], device=device)
incoming = torch.zeros(1, device=device)
# Both ranks post their send and their receive, then wait: with gloo, no ordering to get right.
send_work = dist.isend(outgoing, dst=peer)
recv_work = dist.irecv(incoming, src=peer)
print(f"isend returned a {type(send_work).__name__}")
# Until wait() returns: don't read incoming, don't modify outgoing.
recv_work.wait()
send_work.wait()
print(f"after wait(): received {incoming.item()} from rank {peer}, "
      f"is_completed() = {recv_work.is_completed()}")

dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
