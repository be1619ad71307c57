"""init_process_group with a file:// URL: the ranks meet in a file they can all open.

The file must not exist yet, and all ranks must name the same one: here a name derived from
the run id that torchrun gives every worker, in the temporary directory (one machine). Across
machines it would have to be on a shared filesystem.

Run: torchrun --standalone --nproc-per-node=2 init_file.py
Variants: gloo-cpu, nccl-cuda
Output: same on all devices
"""
import os
import tempfile

import torch
import torch.distributed as dist

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
if os.environ.get("DEVICE", "cpu") == "cuda":
    device = torch.device("cuda", int(os.environ["LOCAL_RANK"]) % torch.cuda.device_count())
    torch.cuda.set_device(device)
else:
    device = torch.device("cpu")
rank, world_size = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
# not printed
path = os.path.join(tempfile.gettempdir(), f"init-{os.environ['TORCHELASTIC_RUN_ID']}")
dist.init_process_group(backend, init_method=f"file://{path}", rank=rank, world_size=world_size,
                        device_id=device if device.type == "cuda" else None)

tensor = torch.tensor([rank + 1], device=device)
dist.all_reduce(tensor)
print(f"joined through file:// as rank {dist.get_rank()} of {dist.get_world_size()}; "
      f"all_reduce gives {tensor.item()}")
print(f"the file exists while the group lives: {os.path.exists(path)}")

dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()  # the last rank to leave deletes the file
