"""dist.all_to_all_single: all_to_all on one flat tensor, with uneven split sizes.

Run: torchrun --standalone --nproc-per-node=2 all_to_all_single.py
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

# How many elements rank i sends to rank j: send_counts[i][j]. Every rank knows the whole plan.
send_counts = [[1, 2], [3, 1]]
input_splits = send_counts[rank]                      # what I send to rank 0, rank 1
output_splits = [row[rank] for row in send_counts]    # what rank 0, rank 1 send to me
data = torch.arange(sum(input_splits), device=device) + 10 * rank
out = torch.zeros(sum(output_splits), dtype=torch.int64, device=device)
dist.all_to_all_single(out, data, output_split_sizes=output_splits,
                       input_split_sizes=input_splits)
print(f"sent:     {[c.tolist() for c in data.split(input_splits)]}")
print(f"received: {[c.tolist() for c in out.split(output_splits)]}")

dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
