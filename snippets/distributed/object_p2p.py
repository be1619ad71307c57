"""send_object_list / recv_object_list: point-to-point for picklable Python objects.

The receiver passes a list of the same length, whose entries are replaced in place. Each
object travels pickled, with a size message ahead of it; the sender's list is unchanged.

Run: torchrun --standalone --nproc-per-node=2 object_p2p.py
"""
import torch
import torch.distributed as dist

dist.init_process_group("gloo")
rank = dist.get_rank()

if rank == 0:
    objects = [{"lr": 0.1, "betas": (0.9, 0.99)}, "checkpoint-7", torch.arange(3)]
    print(f"before: {objects}")
    dist.send_object_list(objects, dst=1)
    print(f"after send_object_list: {objects}")
else:
    objects = [None, None, None]  # as many slots as objects sent
    print(f"before: {objects}")
    dist.recv_object_list(objects, src=0)
    print(f"after recv_object_list: {objects}")

dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
